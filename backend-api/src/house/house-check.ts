import path from 'node:path';
import type { SourceFile, SourceImport } from './import-graph.js';
import type { HousePlan } from './house-plan.js';

/** The rules a file's imports are checked against. */
export type HouseRule =
  | 'room-in-plan'
  | 'downward'
  | 'index-only'
  | 'own-index'
  | 'no-room-cycles'
  | 'no-file-cycles'
  | 'no-test-support';

/** One broken rule: the file, the import (as written) and the rule, with a sentence saying what to do. */
export interface HouseViolation {
  rule: HouseRule;
  /** Path relative to the checked root. */
  file: string;
  line?: number;
  specifier?: string;
  message: string;
}

/** The house's figures: what the checker counts, for the notes (before and after a change). */
export interface HouseFigures {
  /** Imports (statements) from a room to a room that is not below it. */
  importsUpward: number;
  /** Imports from a room into another room's files other than its `index.ts`. */
  importsPastIndex: number;
  /** Groups of rooms that import one another round a circle (strongly connected, two rooms or more). */
  roomCircles: string[][];
  /** Groups of files that import one another round a circle. */
  fileCircles: string[][];
  /** Rooms by lines of non-test code, largest first. */
  roomLines: { room: string; lines: number; files: number }[];
}

export interface HouseReport {
  violations: HouseViolation[];
  figures: HouseFigures;
}

/**
 * Test-only sources (tests, fixtures, contract suites: anything that imports vitest): they may reach any file, as
 * tests see inside rooms, and production code never imports them.
 */
export function isTestSupport(relative: string, source?: SourceFile): boolean {
  return (
    /\.(test|type-test)\.tsx?$/.test(relative) ||
    /(^|\.)fixtures\.ts$|(^|[.-])test[.-]/.test(path.basename(relative)) ||
    relative.split('/').includes('test-support') ||
    (source?.imports.some((i) => i.specifier === 'vitest' || i.specifier.startsWith('vitest/')) ?? false)
  );
}

const ENTRY = '(entry)';

/** The room a file belongs to: the longest room of the plan its folder lies in, the entry for top-level files. */
export function roomOf(plan: HousePlan, relative: string): string | undefined {
  const folder = path.posix.dirname(relative);
  if (folder === '.') return ENTRY;
  let best: string | undefined;
  for (const room of plan.roomNames) {
    if ((folder === room || folder.startsWith(`${room}/`)) && (!best || room.length > best.length)) best = room;
  }
  return best;
}

/** Strongly connected components with more than one member (Tarjan), each sorted, sorted by first member. */
export function circlesOf(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const connect = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const members: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        members.push(member);
      } while (member !== node);
      if (members.length > 1) circles.push(members.sort());
    }
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) connect(node);
  return circles.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

function addEdge(edges: Map<string, Set<string>>, from: string, to: string): void {
  const targets = edges.get(from) ?? new Set<string>();
  targets.add(to);
  edges.set(from, targets);
}

/**
 * Checks the files of `root` (the engine's folder) against the plan: every folder is a room of the plan, rooms
 * import only rooms below them and only through their `index.ts`, no room imports its own index, neither rooms
 * nor files import one another round a circle, and production code imports no test support.
 */
export function checkHouse(plan: HousePlan, root: string, files: readonly SourceFile[]): HouseReport {
  const violations: HouseViolation[] = [];
  const relativeOf = (file: string) => path.relative(root, file).split(path.sep).join('/');
  const roomEdges = new Map<string, Set<string>>();
  const fileEdges = new Map<string, Set<string>>();
  const lines = new Map<string, { lines: number; files: number }>();
  let importsUpward = 0;
  let importsPastIndex = 0;

  const testSupport = new Set(
    files.filter((source) => isTestSupport(relativeOf(source.file), source)).map((source) => source.file),
  );
  for (const source of files) {
    const relative = relativeOf(source.file);
    const room = roomOf(plan, relative);
    const test = testSupport.has(source.file);
    if (!room) {
      violations.push({
        rule: 'room-in-plan',
        file: relative,
        message: `folder "${path.posix.dirname(relative)}" is no room of the house plan: add it to house-plan.ts on its floor, or move the file into a room`,
      });
      continue;
    }
    if (!test) {
      const tally = lines.get(room) ?? { lines: 0, files: 0 };
      lines.set(room, { lines: tally.lines + source.lines, files: tally.files + 1 });
    }
    for (const imported of source.imports) {
      if (!imported.target) continue;
      const targetRelative = relativeOf(imported.target);
      if (targetRelative.startsWith('..')) continue;
      const at = { file: relative, line: imported.line, specifier: imported.specifier };
      if (testSupport.has(imported.target) || isTestSupport(targetRelative)) {
        if (!test)
          violations.push({
            ...at,
            rule: 'no-test-support',
            message: `production code imports test support "${targetRelative}"`,
          });
        continue;
      }
      if (test) continue;
      addEdge(fileEdges, relative, targetRelative);
      const targetRoom = roomOf(plan, targetRelative);
      if (!targetRoom) continue; // reported for the target file itself
      checkImport(plan, { room, targetRoom, targetRelative, imported, at }, violations, {
        upward: () => importsUpward++,
        pastIndex: () => importsPastIndex++,
      });
      if (targetRoom !== room) addEdge(roomEdges, room, targetRoom);
    }
  }

  const roomCircles = circlesOf(roomEdges);
  for (const circle of roomCircles)
    violations.push({
      rule: 'no-room-cycles',
      file: circle[0] ?? '',
      message: `rooms import one another round a circle: ${circle.join(', ')}`,
    });
  const fileCircles = circlesOf(fileEdges);
  for (const circle of fileCircles)
    violations.push({
      rule: 'no-file-cycles',
      file: circle[0] ?? '',
      message: `files import one another round a circle: ${circle.join(', ')}`,
    });
  return {
    violations,
    figures: {
      importsUpward,
      importsPastIndex,
      roomCircles,
      fileCircles,
      roomLines: [...lines]
        .map(([room, tally]) => ({ room, ...tally }))
        .sort((a, b) => b.lines - a.lines || a.room.localeCompare(b.room)),
    },
  };
}

interface ImportUnderCheck {
  room: string;
  targetRoom: string;
  targetRelative: string;
  imported: SourceImport;
  at: { file: string; line: number; specifier: string };
}

function checkImport(
  plan: HousePlan,
  { room, targetRoom, targetRelative, at }: ImportUnderCheck,
  violations: HouseViolation[],
  count: { upward: () => void; pastIndex: () => void },
): void {
  const targetIndex = targetRoom === ENTRY ? 'index.ts' : `${targetRoom}/index.ts`;
  if (targetRoom === room) {
    if (targetRelative === targetIndex && room !== ENTRY)
      violations.push({
        ...at,
        rule: 'own-index',
        message: `a file of "${room}" imports its own room's index; import the file that declares the name`,
      });
    return;
  }
  // A room nested in another (agents/runtime in agents) is a room of its own: the same rules hold between them.
  const refusal = plan.refusal(room, targetRoom);
  if (refusal) {
    count.upward();
    violations.push({ ...at, rule: 'downward', message: refusal });
  }
  if (targetRelative !== targetIndex) {
    count.pastIndex();
    violations.push({
      ...at,
      rule: 'index-only',
      message: `"${room}" reaches into "${targetRelative}"; import it from "${targetIndex}" (export it there if it is missing)`,
    });
  }
}
