import dns from 'node:dns';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeclarationDiff } from '../engine/toolchain/index.js';
import { runWildoCli } from './wildo.cli.js';

// `wildo diff` on two versions of a small agency application, with a guard that fails every socket and DNS lookup
// of this process: diff reads declarations only, so the agency (which does not run) is never asked.

const fixtures = path.join(import.meta.dirname, 'toolchain-fixtures');
const V1 = 'agency-v1.fixtures.ts';
const V2 = 'agency-v2.fixtures.ts';
const LOADS_ENGINE = 60_000;

/** Replaces socket connects and DNS lookups with refusals that are counted, until restored. */
function guardNetwork(): { attempts: string[]; restore(): void } {
  const attempts: string[] = [];
  const connect = Object.getOwnPropertyDescriptor(net.Socket.prototype, 'connect') as PropertyDescriptor;
  const lookup = dns.lookup;
  const promisesLookup = dns.promises.lookup;
  const refuse = (what: string) => {
    attempts.push(what);
    return new Error(`no network in wildo diff: ${what}`);
  };
  Object.defineProperty(net.Socket.prototype, 'connect', {
    ...connect,
    value: (...args: unknown[]) => {
      throw refuse(`connect ${JSON.stringify(args[0])}`);
    },
  });
  dns.lookup = ((host: string) => {
    throw refuse(`lookup ${host}`);
  }) as unknown as typeof dns.lookup;
  dns.promises.lookup = ((host: string) => Promise.reject(refuse(`lookup ${host}`))) as typeof dns.promises.lookup;
  return {
    attempts,
    restore() {
      Object.defineProperty(net.Socket.prototype, 'connect', connect);
      dns.lookup = lookup;
      dns.promises.lookup = promisesLookup;
    },
  };
}

let guard: ReturnType<typeof guardNetwork>;
let human: Awaited<ReturnType<typeof runWildoCli>>;
let json: DeclarationDiff;

beforeAll(async () => {
  guard = guardNetwork();
  human = await runWildoCli(['diff', V1, V2], { cwd: fixtures });
  const machine = await runWildoCli(['diff', '--json', V1, V2], { cwd: fixtures });
  expect(machine.exitCode).toBe(1);
  json = JSON.parse(machine.stdout) as DeclarationDiff;
}, LOADS_ENGINE);
afterAll(() => guard.restore());

/** The class of the change to `capability`'s `subject` (and `item`), or undefined when there is none. */
function classOf(capability: string, subject: string, item?: string): string | undefined {
  return json.changes.find((c) => c.capability === capability && c.subject === subject && c.item === item)?.class;
}

describe('wildo diff', () => {
  it('the guard refuses a connection and a lookup (positive control)', async () => {
    const before = guard.attempts.length;
    await expect(fetch('http://agency.example/')).rejects.toThrow();
    expect(() => net.connect(9, '127.0.0.1')).toThrow(/no network/);
    expect(guard.attempts.length).toBeGreaterThan(before);
    guard.attempts.length = before;
  });

  it('exits 1 on a breaking change and opened no connection doing it', () => {
    expect(human.exitCode).toBe(1);
    expect(human.stderr).toBe('');
    expect(guard.attempts).toEqual([]);
  });

  it('classes each removed, added and changed capability and field', () => {
    expect(classOf('bookings.legacy', 'capability')).toBe('breaking');
    expect(classOf('bookings.quote', 'capability')).toBe('compatible');
    expect(classOf('bookings.find', 'input', 'guests')).toBe('breaking');
    expect(classOf('bookings.book', 'input', 'note')).toBe('compatible');
    expect(classOf('bookings.find', 'output', 'items[].price')).toBe('breaking');
    expect(classOf('bookings.find', 'output', 'items[].rating')).toBe('notable');
    expect(classOf('bookings.book', 'effect')).toBe('breaking');
    expect(classOf('bookings.book', 'policy', 'deny machine')).toBe('breaking');
    expect(classOf('bookings.book', 'failure', 'card-declined')).toBe('notable');
    expect(classOf('bookings.find', 'binding')).toBeUndefined();
    expect(json.counts).toEqual({
      breaking: json.changes.filter((c) => c.class === 'breaking').length,
      notable: json.changes.filter((c) => c.class === 'notable').length,
      compatible: json.changes.filter((c) => c.class === 'compatible').length,
    });
  });

  it('says why and what each change reaches, breaking first', () => {
    const lines = human.stdout.split('\n');
    expect(lines[1]).toMatch(/^ {2}BREAKING/);
    expect(human.stdout).toContain(
      'BREAKING    bookings.find  input guests added (integer): existing calls lack it and are refused',
    );
    expect(human.stdout).toContain(
      'reaches REST POST /organizations/:organizationId/bookings/find; MCP tool bookings__find (default); REST agency',
    );
    expect(human.stdout).not.toContain('\u001b[');
  });

  it('colours the classes on a terminal only, with the same words', async () => {
    const coloured = await runWildoCli(['diff', V1, V2], { cwd: fixtures, colors: true });
    expect(coloured.stdout).toContain('\u001b[31mBREAKING');
    expect(stripVTControlCharacters(coloured.stdout)).toBe(human.stdout);
  });

  it(
    'exits 0 on identical declarations, through a saved snapshot too',
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'wildo-diff-'));
      try {
        const saved = path.join(dir, 'v1.json');
        const same = await runWildoCli(['diff', '--save', saved, V1, V1], { cwd: fixtures });
        expect(same.exitCode, same.stderr).toBe(0);
        expect(same.stdout).toContain('no changes');
        expect(JSON.parse(await readFile(saved, 'utf8'))).toMatchObject({ application: 'agency' });
        const fromSnapshot = await runWildoCli(['diff', saved, V2], { cwd: fixtures });
        expect(fromSnapshot.exitCode).toBe(1);
        expect(fromSnapshot.stdout).toBe(human.stdout.replace(V1, saved));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    LOADS_ENGINE,
  );

  it('exits 2 when a side cannot be read', async () => {
    const missing = await runWildoCli(['diff', V1, 'nowhere.ts'], { cwd: fixtures });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/^wildo diff cannot compare: No application file at nowhere\.ts\./);
    const notSnapshot = await runWildoCli(['diff', V1, '../../../package.json'], { cwd: fixtures });
    expect(notSnapshot.exitCode).toBe(2);
    expect(notSnapshot.stderr).toContain('is not a declaration snapshot');
    expect(guard.attempts).toEqual([]);
  });

  it('documents its classes, examples and exit codes in --help', async () => {
    const help = await runWildoCli(['diff', '--help'], { cwd: fixtures });
    expect(help.stdout).toContain('Examples:');
    expect(help.stdout).toContain('Exit codes: 0 no breaking change; 1 at least one breaking change; 2');
  });
});
