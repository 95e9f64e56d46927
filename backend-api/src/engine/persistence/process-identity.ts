import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';

/** A process as a lock file records it: enough to tell later whether that very process still runs. */
export interface ProcessIdentity {
  pid: number;
  host: string;
  /** Linux: start time in clock ticks since boot (field 22 of `/proc/<pid>/stat`); a reused pid has another. */
  startTicks?: string;
  /** Linux: the kernel's boot id; a process of an earlier boot runs no more, whatever its pid. */
  bootId?: string;
}

/** Whether the process a record names still runs: `elsewhere` when it ran on another host (not checkable here). */
export type ProcessState = 'running' | 'gone' | 'elsewhere';

/**
 * The start time (field 22) of a `/proc/<pid>/stat` line. The command name (field 2) is in parentheses and
 * may itself hold spaces and `)`, so fields are counted from the last `)`.
 */
export function parseStartTicks(stat: string): string | undefined {
  const close = stat.lastIndexOf(')');
  if (close < 0) return undefined;
  // After ")" come field 3 (state) onwards: field 22 is the 20th of them.
  const value = stat
    .slice(close + 1)
    .trim()
    .split(/\s+/)[19];
  return value !== undefined && /^\d+$/.test(value) ? value : undefined;
}

async function readStartTicks(pid: number): Promise<string | undefined> {
  try {
    return parseStartTicks(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

let bootId: Promise<string | undefined> | undefined;

function readBootId(): Promise<string | undefined> {
  bootId ??= readFile('/proc/sys/kernel/random/boot_id', 'utf8').then(
    (text) => text.trim() || undefined,
    () => undefined,
  );
  return bootId;
}

/** This process's identity (start time and boot id where the platform tells them). */
export async function currentProcessIdentity(): Promise<ProcessIdentity> {
  const [startTicks, boot] = await Promise.all([readStartTicks(process.pid), readBootId()]);
  return {
    pid: process.pid,
    host: hostname(),
    ...(startTicks === undefined ? {} : { startTicks }),
    ...(boot === undefined ? {} : { bootId: boot }),
  };
}

function signalZero(pid: number): 'exists' | 'gone' {
  try {
    process.kill(pid, 0);
    return 'exists';
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? 'gone' : 'exists';
  }
}

/**
 * Tells whether the process `holder` names still runs on this host: its pid must exist and, where the
 * record has a start time and `/proc` shows one, be the same process (not a later one given the same pid).
 * Anything it cannot read counts as running, so a live holder is never taken for a dead one.
 */
export async function processState(holder: ProcessIdentity): Promise<ProcessState> {
  if (holder.host !== hostname()) return 'elsewhere';
  const boot = await readBootId();
  if (holder.bootId !== undefined && boot !== undefined && holder.bootId !== boot) return 'gone';
  if (!Number.isSafeInteger(holder.pid) || holder.pid <= 0 || signalZero(holder.pid) === 'gone') return 'gone';
  if (holder.startTicks === undefined) return 'running';
  const startTicks = await readStartTicks(holder.pid);
  return startTicks !== undefined && startTicks !== holder.startTicks ? 'gone' : 'running';
}
