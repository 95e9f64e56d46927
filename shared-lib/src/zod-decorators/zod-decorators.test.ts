import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  fileFieldRegistry,
  initZodDecorators,
  RAG_SOURCE_DEFAULTS,
  RAGChunkingStrategy,
  ragSourceRegistry,
  z_file,
} from './index.js';

initZodDecorators(z);

describe('ragSource()', () => {
  it('records its options in the registry, readable through optional()', () => {
    const body = z.string().max(10).ragSource({ chunkingStrategy: RAGChunkingStrategy.MARKDOWN, chunkSize: 1_200 });
    const field = body.optional();
    expect(ragSourceRegistry.get(field.unwrap())).toEqual({
      chunkingStrategy: 'MARKDOWN',
      chunkSize: 1_200,
      chunkOverlap: 150,
    });
  });

  it('survives checks chained after it, with every default filled', () => {
    const title = z.string().ragSource().min(1);
    expect(ragSourceRegistry.get(title)).toEqual(RAG_SOURCE_DEFAULTS);
  });

  it('leaves unmarked strings out of the registry', () => {
    expect(ragSourceRegistry.get(z.string())).toBeUndefined();
  });

  it('refuses invalid options instead of storing them', () => {
    expect(() => z.string().ragSource({ chunkSize: -5 })).toThrow();
    expect(() => z.string().ragSource({ chunkSize: 200, chunkOverlap: 200 })).toThrow(/chunkOverlap/);
  });

  it('is idempotent', () => {
    initZodDecorators(z);
    expect(ragSourceRegistry.get(z.string().ragSource({ chunkOverlap: 10 }))).toMatchObject({ chunkOverlap: 10 });
  });
});

describe('z_file()', () => {
  const mime = ['application/pdf', 'text/plain'];

  it('stores { fileId, updatedAt } for a single file', () => {
    const field = z_file({ allowedMimeTypes: mime });
    expect(field.parse({ fileId: 'f1', updatedAt: '2026-01-01T00:00:00.000Z' })).toEqual({
      fileId: 'f1',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(field.safeParse({ fileIds: ['f1'], updatedAt: '2026-01-01T00:00:00.000Z' }).success).toBe(false);
  });

  it('stores { fileIds, updatedAt } for multiple files', () => {
    const field = z_file({ allowedMimeTypes: mime, multiple: true });
    expect(field.safeParse({ fileIds: ['a', 'b'], updatedAt: '2026-01-01T00:00:00Z' }).success).toBe(true);
    expect(field.safeParse({ fileId: 'a', updatedAt: '2026-01-01T00:00:00Z' }).success).toBe(false);
  });

  it('keeps its options and its ragSource in the registries', () => {
    const field = z_file({ allowedMimeTypes: mime, textExtraction: { ocr: true }, ragSource: { chunkSize: 1_500 } });
    expect(fileFieldRegistry.get(field)).toMatchObject({
      allowedMimeTypes: mime,
      multiple: false,
      textExtraction: { ocr: true },
    });
    expect(ragSourceRegistry.get(field)).toEqual({ ...RAG_SOURCE_DEFAULTS, chunkSize: 1_500 });
  });

  it('gives each field its own registry entry', () => {
    const a = z_file({ allowedMimeTypes: ['text/plain'] });
    const b = z_file({ allowedMimeTypes: ['application/pdf'] });
    expect(fileFieldRegistry.get(a)?.allowedMimeTypes).toEqual(['text/plain']);
    expect(fileFieldRegistry.get(b)?.allowedMimeTypes).toEqual(['application/pdf']);
  });

  it('refuses a malformed MIME type at declaration', () => {
    expect(() => z_file({ allowedMimeTypes: ['not a mime'] })).toThrow();
  });
});
