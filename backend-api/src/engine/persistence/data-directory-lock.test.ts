import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  acquireDataDirectoryLock,
  DATA_DIRECTORY_LOCK_FILE,
  removeStaleLockFile,
  type DataDirectoryLock,
} from './data-directory-lock.js';
import { DataDirectoryLockedError } from './data-directory-lock.errors.js';
import type { DataDirectoryLockRecord } from './data-directory-lock.schema.js';
import { currentProcessIdentity, parseStartTicks } from './process-identity.js';

const onLinux = existsSync('/proc/self/stat');
let directory: string;
let lockFile: string;
const held: DataDirectoryLock[] = [];

/** The pid of a process that has exited (started and awaited here, so it is not reused within the test run). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

function record(overrides: Partial<DataDirectoryLockRecord>): DataDirectoryLockRecord {
  return {
    version: 1,
    pid: process.pid,
    host: hostname(),
    nonce: randomBytes(16).toString('hex'),
    startedAt: '2026-01-01T00:00:00.000Z',
    command: 'src/main.ts',
    ...overrides,
  };
}

async function writeLock(file: string, content: DataDirectoryLockRecord): Promise<void> {
  await writeFile(file, JSON.stringify(content));
}

async function acquire(): Promise<DataDirectoryLock> {
  const lock = await acquireDataDirectoryLock(directory);
  held.push(lock);
  return lock;
}

async function refusal(): Promise<DataDirectoryLockedError> {
  const error = await acquire().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DataDirectoryLockedError);
  return error as DataDirectoryLockedError;
}

async function lockNonce(): Promise<string> {
  return (JSON.parse(await readFile(lockFile, 'utf8')) as DataDirectoryLockRecord).nonce;
}

let dead: number;
beforeAll(async () => {
  dead = await deadPid();
});

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'wildo-lock-'));
  lockFile = path.join(directory, DATA_DIRECTORY_LOCK_FILE);
});

afterEach(async () => {
  await Promise.all(held.splice(0).map((lock) => lock.release()));
  await rm(directory, { recursive: true, force: true });
});

describe('acquireDataDirectoryLock', () => {
  it('records this process in the lock file and removes it on release', async () => {
    const lock = await acquire();
    const written = JSON.parse(await readFile(lockFile, 'utf8')) as DataDirectoryLockRecord;
    expect(written).toEqual(lock.holder);
    expect(written).toMatchObject({
      pid: process.pid,
      host: hostname(),
      ...(onLinux ? { startTicks: expect.stringMatching(/^\d+$/) } : {}),
    });
    await lock.release();
    expect(existsSync(lockFile)).toBe(false);
    await expect(lock.release()).resolves.toBeUndefined();
  });

  it('refuses a second hold in this process with one line naming it and the fix; free again after release', async () => {
    const first = await acquire();
    const error = await refusal();
    expect(error.reason).toBe('in_use');
    expect(error.message).toBe(
      `The embedded database in ${directory} is already open in this process (pid ${process.pid}, host ${hostname()}, ` +
        `started ${first.holder.startedAt}, command "${first.holder.command}"): close it first, or set WILDO_DATA_DIR to another directory.`,
    );
    expect(await lockNonce()).toBe(first.holder.nonce);
    await first.release();
    expect((await acquire()).holder.pid).toBe(process.pid);
  });

  it('names the URL its holder serves once noted', async () => {
    const first = await acquire();
    await first.noteServingUrl('http://127.0.0.1:4512');
    expect((await refusal()).message).toMatch(/, serving http:\/\/127\.0\.0\.1:4512\): close it first/);
    expect(await lockNonce()).toBe(first.holder.nonce);
  });

  it('takes over a lock whose process is dead', async () => {
    await writeLock(lockFile, record({ pid: dead }));
    const lock = await acquire();
    expect(await lockNonce()).toBe(lock.holder.nonce);
  });

  it.skipIf(!onLinux)(
    'takes over a lock whose pid runs but is another process (start time differs); refuses the same process',
    async () => {
      const parent = {
        pid: process.ppid,
        startTicks: parseStartTicks(await readFile(`/proc/${process.ppid}/stat`, 'utf8')),
      };
      await writeLock(lockFile, record({ ...parent, startTicks: `${parent.startTicks}1` }));
      const lock = await acquire();
      expect(await lockNonce()).toBe(lock.holder.nonce);
      await lock.release();

      await writeLock(lockFile, record(parent));
      const error = await refusal();
      expect(error.reason).toBe('in_use');
      expect(error.message).toMatch(
        new RegExp(
          `is in use by another process \\(pid ${process.ppid}, host .*: stop it, or set WILDO_DATA_DIR to another directory\\.$`,
        ),
      );
    },
  );

  it.skipIf(!onLinux)('takes over a lock written before the last boot, even if its pid runs now', async () => {
    await writeLock(lockFile, record({ ...(await currentProcessIdentity()), bootId: 'an-earlier-boot' }));
    const lock = await acquire();
    expect(await lockNonce()).toBe(lock.holder.nonce);
  });

  it('refuses a lock held on another host, naming the file to delete if that process is gone', async () => {
    const other = record({ host: 'build-box', pid: dead });
    await writeLock(lockFile, other);
    const error = await refusal();
    expect(error.reason).toBe('in_use_elsewhere');
    expect(error.message).toMatch(
      /in use by a process on another host \(pid \d+, host build-box, .*\): stop it, or set WILDO_DATA_DIR to another directory; if it no longer runs, delete .*wildo\.lock\.$/,
    );
    expect(await lockNonce()).toBe(other.nonce);
  });

  it('refuses a lock file it did not write, without touching it', async () => {
    await writeFile(lockFile, 'locked by hand');
    expect((await refusal()).reason).toBe('unreadable');
    expect(await readFile(lockFile, 'utf8')).toBe('locked by hand');
  });

  it('lets exactly one of many simultaneous openers take over a stale lock', async () => {
    await writeLock(lockFile, record({ pid: dead }));
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, () => acquire()));
    const winners = outcomes.filter((o) => o.status === 'fulfilled');
    expect(winners).toHaveLength(1);
    for (const o of outcomes)
      if (o.status === 'rejected') expect((o.reason as DataDirectoryLockedError).reason).toBe('in_use');
    expect(await lockNonce()).toBe((winners[0] as PromiseFulfilledResult<DataDirectoryLock>).value.holder.nonce);
  });

  it('leaves the new holder alone when a slower process acts on its stale view of a lock taken over since', async () => {
    const stale = record({ pid: dead });
    await writeLock(lockFile, stale);
    // Both judged `stale` dead; the first took the lock over, the second now tries to remove what it saw.
    const winner = await acquire();
    await expect(removeStaleLockFile(directory, lockFile, stale)).resolves.toBe(true);
    expect(await lockNonce()).toBe(winner.holder.nonce);
    expect((await refusal()).reason).toBe('in_use');
    expect(await readdir(directory)).toEqual([DATA_DIRECTORY_LOCK_FILE]);
  });

  it('gets past a takeover claim whose process died, and sweeps such leftovers', async () => {
    const stale = record({ pid: dead });
    await writeLock(lockFile, stale);
    await writeLock(`${lockFile}.claim-${stale.nonce}`, record({ pid: dead }));
    await writeFile(`${lockFile}.${dead}.0123456789ab.tmp`, '{}');
    const lock = await acquire();
    expect(await lockNonce()).toBe(lock.holder.nonce);
    expect(await readdir(directory)).toEqual([DATA_DIRECTORY_LOCK_FILE]);
  });

  it('gives up, saying the lock keeps changing hands, while a live process holds the takeover claim', async () => {
    const stale = record({ pid: dead });
    await writeLock(lockFile, stale);
    await writeLock(`${lockFile}.claim-${stale.nonce}`, record({ pid: process.ppid }));
    // The live claimant never finishes here; a real one removes the stale lock within a few file operations.
    expect((await refusal()).reason).toBe('contended');
    expect(await lockNonce()).toBe(stale.nonce);
  });
});

const run = promisify(execFile);

describe('release on exit', () => {
  it('leaves no lock behind when the process exits normally without releasing', async () => {
    const module = path.resolve(import.meta.dirname, 'data-directory-lock.ts');
    const script = `const { acquireDataDirectoryLock } = await import(${JSON.stringify(module)}); await acquireDataDirectoryLock(${JSON.stringify(directory)}); console.log('held'); process.exit(0);`;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      timeout: 30_000,
    });
    expect(stdout.trim()).toBe('held');
    expect(await readdir(directory)).toEqual([]);
  }, 30_000);
});
