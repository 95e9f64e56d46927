import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The example module is the measure of the framework's developer experience: one organization-scoped resource with
// CRUD, a filter, roles and an instance operation, one chat agent in an actor system, a read tool and an
// approval-gated tool, in at most 60 lines of application code, without any escape hatch from the types.
const MAX_LINES = 60;
const moduleDir = import.meta.dirname;
const applicationFiles = readdirSync(moduleDir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));

/** Lines holding code: every line a token (not a comment, not whitespace) starts on or spans, imports included. */
function codeLines(source: ts.SourceFile): number {
  const lines = new Set<number>();
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, source.text);
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.TemplateExpression || node.kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      for (let line = first; line <= last; line++) lines.add(line);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    lines.add(source.getLineAndCharacterOfPosition(scanner.getTokenStart()).line);
  }
  return lines.size;
}

/** Type escape hatches: `any`, casts (`as T`, `<T>x`, but not `as const`) and non-null assertions. */
function escapeHatches(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const at = (node: ts.Node) =>
    `${path.basename(source.fileName)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.AnyKeyword) found.push(`any at ${at(node)}`);
    if (ts.isAsExpression(node) && !(ts.isTypeReferenceNode(node.type) && node.type.getText(source) === 'const'))
      found.push(`cast at ${at(node)}`);
    if (ts.isTypeAssertionExpression(node)) found.push(`cast at ${at(node)}`);
    if (ts.isNonNullExpression(node)) found.push(`non-null assertion at ${at(node)}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const parse = (name: string) =>
  ts.createSourceFile(name, readFileSync(path.join(moduleDir, name), 'utf8'), ts.ScriptTarget.Latest, true);

describe('the support desk module (the 60-line example)', () => {
  it(`holds its application code in at most ${MAX_LINES} lines, imports included, blank lines and comments not counted`, () => {
    expect(applicationFiles.length).toBeGreaterThan(0);
    const total = applicationFiles.map((name) => codeLines(parse(name))).reduce((sum, lines) => sum + lines, 0);
    expect(total).toBeGreaterThan(20);
    expect(total).toBeLessThanOrEqual(MAX_LINES);
  });

  it('uses no any, no cast and no non-null assertion', () => {
    expect(applicationFiles.flatMap((name) => escapeHatches(parse(name)))).toEqual([]);
  });

  it('counts code lines and spots escape hatches as intended', () => {
    const sample = ts.createSourceFile(
      'sample.ts',
      [
        '// a comment',
        '',
        'const a = 1 as number; /* inline */',
        '/**',
        ' * doc',
        ' */',
        'const b: any = a!;',
        'const c = `x',
        'y`;',
        'const d = [1] as const;',
      ].join('\n'),
      ts.ScriptTarget.Latest,
      true,
    );
    expect(codeLines(sample)).toBe(5);
    expect(escapeHatches(sample)).toEqual([
      'cast at sample.ts:3',
      'any at sample.ts:7',
      'non-null assertion at sample.ts:7',
    ]);
  });
});
