import type { DataDirectoryLockRecord } from './data-directory-lock.schema.js';

/** Why an embedded database directory could not be locked. */
export type DataDirectoryLockRefusal =
  /** Another process on this host holds it (or this very process: `holder.pid === process.pid`). */
  | 'in_use'
  /** A process on another host holds it (a shared directory); whether it still runs cannot be checked from here. */
  | 'in_use_elsewhere'
  /** The lock file exists but is not one this engine wrote. */
  | 'unreadable'
  /** The lock kept changing hands while this process tried to take it. */
  | 'contended';

const FIX = 'stop it, or set WILDO_DATA_DIR to another directory';

/** Control characters (a newline in a recorded command, say) would break the one-line message. */
function printable(text: string): string {
  // oxlint-disable-next-line no-control-regex -- matching control characters is the point: they are replaced.
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}

/** `pid 123, host h, started <ISO>, command "src/main.ts", serving http://…`: who holds the lock, as recorded. */
export function describeLockHolder(holder: DataDirectoryLockRecord): string {
  const parts = [`pid ${holder.pid}`, `host ${holder.host}`, `started ${holder.startedAt}`];
  if (holder.command !== '') parts.push(`command "${holder.command}"`);
  if (holder.urls !== undefined && holder.urls.length > 0) parts.push(`serving ${holder.urls.join(', ')}`);
  return printable(parts.join(', '));
}

function refusalMessage(
  reason: DataDirectoryLockRefusal,
  directory: string,
  lockFile: string,
  holder?: DataDirectoryLockRecord,
): string {
  const who = holder === undefined ? '' : ` (${describeLockHolder(holder)})`;
  switch (reason) {
    case 'in_use':
      return holder?.pid === process.pid
        ? `The embedded database in ${directory} is already open in this process${who}: close it first, or set WILDO_DATA_DIR to another directory.`
        : `The embedded database in ${directory} is in use by another process${who}: ${FIX}.`;
    case 'in_use_elsewhere':
      return `The embedded database in ${directory} is in use by a process on another host${who}: ${FIX}; if it no longer runs, delete ${lockFile}.`;
    case 'unreadable':
      return `The embedded database in ${directory} has a lock file this engine did not write (${lockFile}): if no other process uses the directory, delete it; or set WILDO_DATA_DIR to another directory.`;
    case 'contended':
      return `The embedded database in ${directory} could not be locked: other processes keep taking and releasing it; ${FIX}.`;
  }
}

/**
 * A process may not open an embedded database directory another process (or another open in this one) holds.
 * The message is one line naming the holder and the fix, meant to be printed as is, without a stack.
 */
export class DataDirectoryLockedError extends Error {
  override readonly name = 'DataDirectoryLockedError';

  constructor(
    readonly reason: DataDirectoryLockRefusal,
    readonly directory: string,
    readonly lockFile: string,
    readonly holder?: DataDirectoryLockRecord,
  ) {
    super(printable(refusalMessage(reason, directory, lockFile, holder)));
  }
}
