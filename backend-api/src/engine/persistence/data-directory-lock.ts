import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { DataDirectoryLockedError } from './data-directory-lock.errors.js';
import { DataDirectoryLockRecordSchema, type DataDirectoryLockRecord } from './data-directory-lock.schema.js';
import { createFileExclusively, replaceFile } from './exclusive-file.js';
import { currentProcessIdentity, processState } from './process-identity.js';

/** The lock file's name inside the directory it guards. */
export const DATA_DIRECTORY_LOCK_FILE = 'wildo.lock';

/** An exclusive hold on a data directory, kept for the life of the process unless released. */
export interface DataDirectoryLock {
  readonly directory: string;
  readonly file: string;
  /** What the lock file says about this process. */
  readonly holder: DataDirectoryLockRecord;
  /** Records a URL this process serves, so a refused process can name it. */
  noteServingUrl(url: string): Promise<void>;
  /** Removes the lock file (if it is still this lock's); idempotent. */
  release(): Promise<void>;
}

/** Each pass either takes the lock, refuses, or removes one stale file; more passes mean the lock keeps changing hands. */
const MAX_ATTEMPTS = 20;
/** Nested claims only exist when processes die inside the takeover step itself; a few levels are plenty. */
const MAX_CLAIM_DEPTH = 4;
const CLAIM_NAME = new RegExp(`^${DATA_DIRECTORY_LOCK_FILE.replace('.', '\\.')}\\.claim-[0-9a-f]+$`);
const TEMP_NAME = new RegExp(
  `^${DATA_DIRECTORY_LOCK_FILE.replace('.', '\\.')}\\.(?:claim-[0-9a-f]+\\.)?(\\d+)\\.[0-9a-f]+\\.tmp$`,
);

type ReadOutcome = DataDirectoryLockRecord | 'absent' | 'unreadable';

async function readLockRecord(file: string): Promise<ReadOutcome> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    throw error;
  }
  return parseLockRecord(text);
}

function parseLockRecord(text: string): DataDirectoryLockRecord | 'unreadable' {
  try {
    const parsed = DataDirectoryLockRecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/** The script and its leading words (`src/main.ts`, `wildo users grant-role`): no option values, which may be private. */
function describeCommand(): string {
  const [script, ...args] = process.argv.slice(1);
  if (script === undefined) return '';
  const relative = path.relative(process.cwd(), script);
  const shown = relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : script;
  const firstOption = args.findIndex((arg) => arg.startsWith('-'));
  return [shown, ...(firstOption < 0 ? args : args.slice(0, firstOption))].join(' ').slice(0, 200);
}

async function newRecord(): Promise<DataDirectoryLockRecord> {
  return {
    version: 1,
    ...(await currentProcessIdentity()),
    nonce: randomBytes(16).toString('hex'),
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    command: describeCommand(),
  };
}

function claimFileFor(directory: string, stale: DataDirectoryLockRecord): string {
  return path.join(directory, `${DATA_DIRECTORY_LOCK_FILE}.claim-${stale.nonce}`);
}

/**
 * Removes `target` (the lock file, or a takeover claim in `directory`), which held `stale` when its process was
 * judged gone, so that no two processes can both believe they removed it: the remover first creates
 * `<lock>.claim-<stale nonce>` exclusively, then unlinks `target` only while it still holds that nonce. Only a
 * claim holder ever unlinks a file naming a dead process, and only one claim per record exists, so between that
 * check and the unlink nobody else can change `target`; a remover acting on an old view (the lock was taken over
 * since) finds another nonce and leaves the new holder's file alone. A claim whose own process died is removed
 * the same way (one level down).
 *
 * Resolves `true` when the caller should look again at once, `false` when a live process is taking over.
 */
export async function removeStaleLockFile(
  directory: string,
  target: string,
  stale: DataDirectoryLockRecord,
  depth = 0,
): Promise<boolean> {
  const claim = claimFileFor(directory, stale);
  if (!(await createFileExclusively(claim, JSON.stringify(await newRecord())))) {
    const claimant = await readLockRecord(claim);
    if (claimant === 'absent') return true;
    if (claimant === 'unreadable') throw new DataDirectoryLockedError('unreadable', directory, claim);
    if ((await processState(claimant)) !== 'gone' || depth >= MAX_CLAIM_DEPTH) return false;
    await removeStaleLockFile(directory, claim, claimant, depth + 1);
    return true;
  }
  try {
    const current = await readLockRecord(target);
    if (typeof current === 'object' && current.nonce === stale.nonce) await rm(target, { force: true });
  } finally {
    await rm(claim, { force: true });
  }
  return true;
}

/** Leftovers of processes killed inside a takeover or a write: dead claims and their temporary files. */
async function sweepLeftovers(directory: string): Promise<void> {
  for (const name of await readdir(directory)) {
    const file = path.join(directory, name);
    const temp = TEMP_NAME.exec(name);
    if (temp !== null) {
      if ((await processState({ pid: Number(temp[1]), host: hostname() })) === 'gone') await rm(file, { force: true });
    } else if (CLAIM_NAME.test(name)) {
      const claimant = await readLockRecord(file);
      if (typeof claimant === 'object' && (await processState(claimant)) === 'gone')
        await removeStaleLockFile(directory, file, claimant);
    }
  }
}

const heldLocks = new Set<HeldLock>();
let exitHookInstalled = false;

/** A normal exit (even without `close()`) leaves no lock behind; a SIGKILL does, and the next start finds it stale. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const lock of heldLocks) lock.releaseSync();
  });
}

class HeldLock implements DataDirectoryLock {
  private released: Promise<void> | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    readonly directory: string,
    readonly file: string,
    private record: DataDirectoryLockRecord,
  ) {
    heldLocks.add(this);
    installExitHook();
  }

  get holder(): DataDirectoryLockRecord {
    return this.record;
  }

  noteServingUrl(url: string): Promise<void> {
    if (this.released !== undefined) return Promise.resolve();
    this.record = { ...this.record, urls: [...(this.record.urls ?? []), url].slice(-16) };
    const record = this.record;
    // Rewrites go one after the other, and only over this lock's own file.
    this.writing = this.writing
      .catch(() => undefined)
      .then(async () => {
        if (this.released === undefined && (await this.isStillOurs()))
          await replaceFile(this.file, JSON.stringify(record));
      });
    return this.writing;
  }

  release(): Promise<void> {
    this.released ??= (async () => {
      heldLocks.delete(this);
      await this.writing.catch(() => undefined);
      if (await this.isStillOurs()) await rm(this.file, { force: true });
    })();
    return this.released;
  }

  /** The exit hook's variant: only synchronous calls run during `exit`. */
  releaseSync(): void {
    try {
      const current = parseLockRecord(readFileSync(this.file, 'utf8'));
      if (typeof current === 'object' && current.nonce === this.record.nonce) unlinkSync(this.file);
    } catch {
      // Already gone: nothing to release.
    }
  }

  private async isStillOurs(): Promise<boolean> {
    const current = await readLockRecord(this.file);
    return typeof current === 'object' && current.nonce === this.record.nonce;
  }
}

/** Lets a live process finish its takeover (it takes a few file operations) before looking again. */
function backOff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.min(50, 2 * attempt)));
}

/**
 * Takes the exclusive lock of `directory` (which must exist) for this process: creates `wildo.lock` there
 * recording pid, host, process start identity and command. A lock whose process is gone (dead pid, a reused
 * pid with another start time, an earlier boot) is taken over; a live one is refused with a
 * {@link DataDirectoryLockedError} naming its holder. Released by `release()` or on normal exit.
 *
 * @example
 * const lock = await acquireDataDirectoryLock('/srv/app/.wildo-saas/data/pglite');
 * try { ... } finally { await lock.release(); }
 */
export async function acquireDataDirectoryLock(directory: string): Promise<DataDirectoryLock> {
  const file = path.join(directory, DATA_DIRECTORY_LOCK_FILE);
  const record = await newRecord();
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    if (await createFileExclusively(file, JSON.stringify(record))) {
      const lock = new HeldLock(directory, file, record);
      // Tidying is a courtesy: it never costs the lock just taken.
      await sweepLeftovers(directory).catch(() => undefined);
      return lock;
    }
    const holder = await readLockRecord(file);
    if (holder === 'absent') continue;
    if (holder === 'unreadable') throw new DataDirectoryLockedError('unreadable', directory, file);
    const state = await processState(holder);
    if (state === 'running') throw new DataDirectoryLockedError('in_use', directory, file, holder);
    if (state === 'elsewhere') throw new DataDirectoryLockedError('in_use_elsewhere', directory, file, holder);
    if (!(await removeStaleLockFile(directory, file, holder))) await backOff(attempt);
  }
  throw new DataDirectoryLockedError('contended', directory, file);
}
