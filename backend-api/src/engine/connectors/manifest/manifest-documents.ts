import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import type { DeclarationProblem } from '../../resources/index.js';

/** One YAML file of a manifest, parsed, with what reports a problem at a path inside it. */
export interface ManifestDocument {
  /** The path relative to the manifest's directory, with `/` separators. */
  file: string;
  data: unknown;
  /** Reports a problem at `at` (`capability.input.dates.type`), naming the file and the line. */
  report(at: string | readonly (string | number)[], message: string): void;
}

function yamlFiles(directory: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.ya?ml$/.test(name)) found.push(full);
    }
  };
  walk(directory);
  return found;
}

function lineOf(doc: Document, counter: LineCounter, at: readonly (string | number)[]): number | undefined {
  for (let depth = at.length; depth >= 0; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(at.slice(0, depth), true);
    const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
    if (range) return counter.linePos(range[0]).line;
  }
  return undefined;
}

/**
 * Reads every `.yaml` / `.yml` file under `directory` (sorted, recursively). A file that does not parse is reported
 * with its line and is not returned; `label` names the directory in problems.
 */
export function readManifestDocuments(
  directory: string,
  label: string,
  problems: DeclarationProblem[],
): ManifestDocument[] {
  let files: string[];
  try {
    files = yamlFiles(directory);
  } catch {
    problems.push({
      declaration: `manifest "${label}"`,
      path: '(directory)',
      message: 'the directory cannot be read; pass the directory that holds capabilities.yaml',
    });
    return [];
  }
  const documents: ManifestDocument[] = [];
  for (const full of files) {
    const file = path.relative(directory, full).split(path.sep).join('/');
    const declaration = `manifest file "${label}/${file}"`;
    const counter = new LineCounter();
    const doc = parseDocument(readFileSync(full, 'utf8'), {
      lineCounter: counter,
      prettyErrors: true,
      uniqueKeys: true,
    });
    if (doc.errors.length > 0) {
      for (const error of doc.errors.slice(0, 3)) {
        const line = error.linePos?.[0]?.line;
        problems.push({
          declaration,
          path: line ? `(line ${line})` : '(file)',
          message: `not valid YAML: ${error.code.toLowerCase().replace(/_/g, ' ')}; fix the indentation or quoting there`,
        });
      }
      continue;
    }
    documents.push({
      file,
      data: doc.toJS() as unknown,
      report(at, message) {
        const segments = typeof at === 'string' ? at.split('.').filter((s) => s !== '') : at;
        const line = lineOf(doc, counter, segments);
        const where = segments.length === 0 ? '(document)' : segments.join('.');
        problems.push({ declaration, path: line ? `${where} (line ${line})` : where, message });
      },
    });
  }
  return documents;
}

function valueAt(data: unknown, at: readonly (string | number)[]): unknown {
  let current = data;
  for (const segment of at) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/** Parses a document against its schema, reporting each issue at its path; undefined when it does not fit. */
export function parseDocumentAs<T extends z.ZodType>(document: ManifestDocument, schema: T): z.output<T> | undefined {
  const parsed = schema.safeParse(document.data);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues.slice(0, 16)) {
    const at = issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
    if (issue.code === 'unrecognized_keys') {
      document.report(
        at,
        `unknown key${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}: remove or correct ${issue.keys.length === 1 ? 'it' : 'them'}`,
      );
    } else if (valueAt(document.data, at) === undefined) {
      document.report(at, `required: add ${String(at.at(-1) ?? 'it')}`);
    } else {
      document.report(at, issue.message);
    }
  }
  return undefined;
}
