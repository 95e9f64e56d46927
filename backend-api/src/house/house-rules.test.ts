import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkHouse, type HouseViolation } from './house-check.js';
import { HOUSE_FLOORS, housePlan, type HouseFloor } from './house-plan.js';
import { readSourceTree, type SourceFile } from './import-graph.js';

const ENGINE = path.resolve(import.meta.dirname, '../engine');

/** One line per broken rule: where, the import as written, the rule and what to do. */
function describeViolations(violations: readonly HouseViolation[]): string {
  return violations
    .map(
      (v) => `${v.file}${v.line ? `:${v.line}` : ''}${v.specifier ? ` '${v.specifier}'` : ''} [${v.rule}] ${v.message}`,
    )
    .join('\n');
}

describe('the engine keeps its house plan', () => {
  it('every import runs down the floors, through an index, with no circle', () => {
    const report = checkHouse(housePlan(), ENGINE, readSourceTree(ENGINE));
    expect(describeViolations(report.violations)).toBe('');
    expect(report.figures.roomCircles).toEqual([]);
  });

  it('the reference application reaches the framework only through its package names, as an outside one does', () => {
    const modules = path.resolve(import.meta.dirname, '../modules');
    const reaching = readSourceTree(modules)
      .filter((source) => !/\.(test|type-test)\.ts$/.test(source.file))
      .flatMap((source) =>
        source.imports
          .filter((imported) => imported.target && !imported.target.startsWith(`${modules}${path.sep}`))
          .map((imported) => `${path.relative(modules, source.file)} '${imported.specifier}'`),
      );
    expect(reaching).toEqual([]);
  });

  it('names each room once', () => {
    const rooms = HOUSE_FLOORS.flatMap((floor) => Object.keys(floor.rooms));
    expect(rooms.length).toBe(new Set(rooms).size);
  });
});

// A small house on paper: files are given with their imports, so each rule is seen to fire and to stay quiet.
const ROOT = '/house';
const FLOORS: readonly HouseFloor[] = [
  { name: 'ground', rooms: { store: 'data', words: 'vocabulary' } },
  { name: 'first', rooms: { service: 'logic', 'service/part': 'a nested room' } },
  { name: 'roof', rooms: { surface: 'the door' } },
];
const LIMITS = [{ room: 'surface', never: ['store'], because: 'a surface reaches data only through the service' }];

function file(relative: string, ...imports: string[]): SourceFile {
  const full = path.join(ROOT, relative);
  return {
    file: full,
    lines: 10,
    imports: imports.map((specifier, index) => ({
      specifier,
      line: index + 1,
      ...(specifier.startsWith('.')
        ? { target: path.resolve(path.dirname(full), specifier.replace(/\.js$/, '.ts')) }
        : {}),
    })),
  };
}

function check(...files: SourceFile[]) {
  return checkHouse(housePlan(FLOORS, LIMITS), ROOT, files);
}

const FOUNDATIONS = [
  file('store/index.ts', './store.js'),
  file('store/store.ts'),
  file('words/index.ts', './words.js'),
  file('words/words.ts'),
  file('service/index.ts', './service.js'),
  file('service/service.ts', '../store/index.js', '../words/index.js'),
  file('service/part/index.ts', './part.js'),
  file('service/part/part.ts', '../../store/index.js'),
];

describe('house rules', () => {
  it('let a house that imports downward through indexes pass (the positive control)', () => {
    const report = check(...FOUNDATIONS, file('surface/door.ts', '../service/index.js', 'express'));
    expect(report.violations).toEqual([]);
    expect(report.figures).toMatchObject({ importsUpward: 0, importsPastIndex: 0, roomCircles: [], fileCircles: [] });
  });

  it('refuse an import of a room above, naming the file, the import and the rule', () => {
    const report = check(...FOUNDATIONS, file('store/cache.ts', '../service/index.js'));
    expect(report.violations).toEqual([
      expect.objectContaining({ rule: 'downward', file: 'store/cache.ts', line: 1, specifier: '../service/index.js' }),
      expect.objectContaining({ rule: 'no-room-cycles' }),
    ]);
    expect(report.figures.importsUpward).toBe(1);
  });

  it('refuse an import of a room on the same floor', () => {
    const report = check(...FOUNDATIONS, file('words/lookup.ts', '../store/index.js'));
    expect(report.violations.map((v) => v.rule)).toEqual(['downward']);
    expect(report.violations[0]?.message).toContain('a room on its own floor');
  });

  it('refuse a nested room reaching up into its parent room', () => {
    const report = check(...FOUNDATIONS, file('service/part/up.ts', '../index.js'));
    expect(report.violations.map((v) => v.rule)).toContain('downward');
  });

  it('refuse what a limit forbids even when it is below', () => {
    const report = check(...FOUNDATIONS, file('surface/door.ts', '../store/index.js'));
    expect(report.violations).toEqual([
      expect.objectContaining({ rule: 'downward', message: expect.stringContaining('through the service') }),
    ]);
  });

  it("refuse reaching past a room's index", () => {
    const report = check(...FOUNDATIONS, file('surface/door.ts', '../service/service.js'));
    expect(report.violations).toEqual([
      expect.objectContaining({ rule: 'index-only', file: 'surface/door.ts', specifier: '../service/service.js' }),
    ]);
    expect(report.figures.importsPastIndex).toBe(1);
  });

  it('refuse a room importing its own index', () => {
    const report = check(...FOUNDATIONS, file('service/helper.ts', './index.js'));
    expect(report.violations.map((v) => v.rule)).toContain('own-index');
  });

  it('refuse files that import one another round a circle', () => {
    const report = check(...FOUNDATIONS, file('words/a.ts', './b.js'), file('words/b.ts', './a.js'));
    expect(report.violations).toEqual([expect.objectContaining({ rule: 'no-file-cycles' })]);
    expect(report.figures.fileCircles).toEqual([['words/a.ts', 'words/b.ts']]);
  });

  it('refuse a folder the plan does not name', () => {
    const report = check(...FOUNDATIONS, file('attic/box.ts'));
    expect(report.violations).toEqual([expect.objectContaining({ rule: 'room-in-plan', file: 'attic/box.ts' })]);
  });

  it('refuse production code importing test support, and let tests reach inside rooms', () => {
    const report = check(
      ...FOUNDATIONS,
      file('service/service.fixtures.ts'),
      file('service/uses-fixture.ts', './service.fixtures.js'),
      file('surface/door.test.ts', '../service/service.js', '../store/store.js'),
    );
    expect(report.violations).toEqual([
      expect.objectContaining({ rule: 'no-test-support', file: 'service/uses-fixture.ts' }),
    ]);
  });
});
