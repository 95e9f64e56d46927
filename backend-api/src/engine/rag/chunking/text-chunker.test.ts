import { RAGChunkingStrategy } from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { chunkingHash, chunkText, markdownSections, sourceHash } from './text-chunker.js';

const recursive = { chunkingStrategy: RAGChunkingStrategy.RECURSIVE, chunkSize: 200, chunkOverlap: 40 };
const markdown = { chunkingStrategy: RAGChunkingStrategy.MARKDOWN, chunkSize: 200, chunkOverlap: 20 };

const paragraph = (label: string) => `${label} ` + Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');

describe('chunkText', () => {
  it('RECURSIVE: chunks fit the declared size, neighbours overlap, every chunk carries both stamps', async () => {
    const text = [paragraph('Alpha'), paragraph('Beta'), paragraph('Gamma')].join('\n\n');
    const chunks = await chunkText(text, recursive);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(200);
      expect(chunk.contentHash).toBe(sourceHash(chunk.text));
      expect(chunk.chunkingHash).toBe(chunkingHash(recursive));
    }
    expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
    // Overlap: the start of a chunk repeats the end of the one before it (within one paragraph).
    const [first, second] = chunks;
    const shared = second?.text.split(' ')[0] ?? '';
    expect(first?.text.includes(shared)).toBe(true);
  });

  it('MARKDOWN: splits at headings and keeps each heading with every chunk of its section', async () => {
    const text = `Intro line.\n\n# Travel\n\n${paragraph('Flights')}\n\n${paragraph('Hotels')}\n\n## Meals\n\nUp to 40 EUR a day.\n\n\`\`\`\n# not a heading\n\`\`\`\n`;
    expect(markdownSections(text).map((s) => s.heading)).toEqual(['', '# Travel', '## Meals']);
    const chunks = await chunkText(text, markdown);
    expect(chunks[0]?.text).toBe('Intro line.');
    const travel = chunks.filter((c) => c.text.startsWith('# Travel\n'));
    expect(travel.length).toBeGreaterThan(1);
    expect(chunks.at(-1)?.text.startsWith('## Meals\nUp to 40 EUR a day.')).toBe(true);
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(200);
  });

  it('gives no chunks for blank text, and a new chunking stamp when any option changes', async () => {
    expect(await chunkText('  \n ', recursive)).toEqual([]);
    const stamps = new Set([
      chunkingHash(recursive),
      chunkingHash({ ...recursive, chunkSize: 201 }),
      chunkingHash({ ...recursive, chunkOverlap: 41 }),
      chunkingHash({ ...recursive, chunkingStrategy: RAGChunkingStrategy.MARKDOWN }),
    ]);
    expect(stamps.size).toBe(4);
  });
});
