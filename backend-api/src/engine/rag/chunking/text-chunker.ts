import { createHash } from 'node:crypto';
import { RAGChunkingStrategy, type ResolvedRagSourceOptions } from '@wildo/shared-lib';

/**
 * Bumped when the way text is cut changes (splitter settings, heading handling), so every stored chunk set is
 * stale and reconciliation rebuilds it, exactly as when a declaration's options change.
 */
export const CHUNKER_VERSION = 1;

/** One chunk of a source text, stamped so reconciliation can tell whether it is current. */
export interface TextChunk {
  index: number;
  text: string;
  /** SHA-256 of `text`. */
  contentHash: string;
  /** SHA-256 of the chunking options and {@link CHUNKER_VERSION}: equal for every chunk of one chunking. */
  chunkingHash: string;
}

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** The SHA-256 of a source text (a field's value), to tell whether it changed since it was chunked. */
export function sourceHash(text: string): string {
  return sha256(text);
}

/** The stamp of a chunking: strategy, size, overlap and the chunker's version. */
export function chunkingHash(options: ResolvedRagSourceOptions): string {
  const { chunkingStrategy, chunkSize, chunkOverlap } = options;
  return sha256(JSON.stringify({ v: CHUNKER_VERSION, chunkingStrategy, chunkSize, chunkOverlap }));
}

type Splitters = typeof import('@langchain/textsplitters');
let splitters: Promise<Splitters> | undefined;
// The splitters pull in @langchain/core: loaded on first use, not when the engine starts.
const loadSplitters = (): Promise<Splitters> => (splitters ??= import('@langchain/textsplitters'));

/** A Markdown section: its heading line (empty before the first heading) and its body. */
interface Section {
  heading: string;
  body: string;
}

/** Splits Markdown at ATX headings (outside fenced code), each section keeping its heading. */
export function markdownSections(text: string): Section[] {
  const sections: Section[] = [];
  let current: Section = { heading: '', body: '' };
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (!fenced && /^#{1,6}\s+\S/.test(line)) {
      if (current.heading !== '' || current.body.trim() !== '') sections.push(current);
      current = { heading: line.trim(), body: '' };
      continue;
    }
    current.body += `${line}\n`;
  }
  if (current.heading !== '' || current.body.trim() !== '') sections.push(current);
  return sections;
}

/**
 * Cuts a source text into chunks with the field's declared options: `RECURSIVE` splits on paragraphs, then
 * lines, then words until chunks fit `chunkSize` (with `chunkOverlap` characters shared by neighbours);
 * `MARKDOWN` first splits at headings and repeats the section heading at the start of each of its chunks.
 * Blank text gives no chunks.
 *
 * @example
 * const chunks = await chunkText(body, { chunkingStrategy: RAGChunkingStrategy.MARKDOWN, chunkSize: 1_200, chunkOverlap: 150 });
 */
export async function chunkText(text: string, options: ResolvedRagSourceOptions): Promise<TextChunk[]> {
  if (text.trim() === '') return [];
  const { RecursiveCharacterTextSplitter } = await loadSplitters();
  const { chunkSize, chunkOverlap } = options;
  const pieces: string[] = [];
  if (options.chunkingStrategy === RAGChunkingStrategy.MARKDOWN) {
    for (const section of markdownSections(text)) {
      // The heading travels with every chunk of its section, inside the declared size.
      const room = Math.max(chunkSize - section.heading.length - 1, Math.ceil(chunkSize / 2));
      const splitter = RecursiveCharacterTextSplitter.fromLanguage('markdown', {
        chunkSize: room,
        chunkOverlap: Math.min(chunkOverlap, room - 1),
      });
      const bodies = section.body.trim() === '' ? [''] : await splitter.splitText(section.body.trim());
      for (const body of bodies) pieces.push(section.heading === '' ? body : `${section.heading}\n${body}`.trim());
    }
  } else {
    pieces.push(...(await new RecursiveCharacterTextSplitter({ chunkSize, chunkOverlap }).splitText(text)));
  }
  const stamp = chunkingHash(options);
  return pieces
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '')
    .map((piece, index) => ({ index, text: piece, contentHash: sha256(piece), chunkingHash: stamp }));
}
