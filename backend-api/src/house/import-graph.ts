import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One import (or re-export, dynamic import, `import('x')` type) of one source file. */
export interface SourceImport {
  /** The specifier as written (`../resources/index.js`). */
  specifier: string;
  /** The file it resolves to (absolute), when it names a file of the tree; packages resolve to nothing. */
  target?: string;
  /** 1-based line of the statement. */
  line: number;
}

/** One TypeScript source file of the tree and what it imports. */
export interface SourceFile {
  /** Absolute path. */
  file: string;
  /** Lines of the file (every line, comments included). */
  lines: number;
  imports: SourceImport[];
}

/** Every `.ts` / `.tsx` file under `root`, sorted, skipping `node_modules` and `dist`. */
export function listSourceFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(full);
    }
  };
  walk(root);
  return found.sort();
}

/** Resolves a relative specifier the way NodeNext does for our sources (`./x.js` is `./x.ts`). */
function resolveRelative(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    base,
    `${base}.ts`,
    path.join(base, 'index.ts'),
  ];
  return candidates.find((candidate) =>
    candidate.endsWith('.ts') || candidate.endsWith('.tsx') ? existsSync(candidate) : false,
  );
}

/**
 * Reads one file's imports with TypeScript's import pre-processor (its scanner, no syntax tree: a fraction of a
 * millisecond per file): static imports and re-exports, `import type`, dynamic `import()` and `import('x')` types.
 */
export function readSourceFile(file: string): SourceFile {
  const text = readFileSync(file, 'utf8');
  const lineStarts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lineStarts.push(at + 1);
  const lineOf = (position: number) => {
    let line = lineStarts.findIndex((start) => start > position);
    if (line === -1) line = lineStarts.length;
    return line;
  };
  const imports = ts.preProcessFile(text, true, true).importedFiles.map((reference): SourceImport => {
    const target = resolveRelative(file, reference.fileName);
    return { specifier: reference.fileName, ...(target ? { target } : {}), line: lineOf(reference.pos) };
  });
  return { file, lines: text.endsWith('\n') ? lineStarts.length - 1 : lineStarts.length, imports };
}

/** Reads every source file under `root`. */
export function readSourceTree(root: string): SourceFile[] {
  return listSourceFiles(root).map(readSourceFile);
}
