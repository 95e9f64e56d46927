import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { CodingAgent_RefusalReason } from '@wildo/shared-lib';

/** Whether the run may touch `location` (an absolute path): the host's task predicate. */
export type CodingLocationPredicate = (location: string) => boolean;

/** A location check's answer: the absolute path to use, or why it is refused. */
export type CodingLocationDecision =
  | { ok: true; path: string }
  | { ok: false; reason: Extract<CodingAgent_RefusalReason, LocationRefusal> };

type LocationRefusal = 'not_absolute' | 'dot_segments' | 'outside_workspace' | 'symlink' | 'not_permitted';

/** Splits on both separators so a Windows-style `..\\` cannot slip through on any platform. */
const SEGMENT_SEPARATOR = /[\\/]+/;

/** Whether `child` is `root` or lies below it (both absolute and normalized). */
function isWithin(root: string, child: string): boolean {
  const relative = path.relative(root, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Checks every location the agent names through the client (a file to read or write, a permission request's
 * locations, a terminal's working directory) before anything touches it. Refused, in this order: a path that is
 * not absolute (or holds a NUL), one holding a `..` segment (even when it resolves inside), one outside the
 * workspace root, one passing through a symbolic link at or below the root (the link could point anywhere), and
 * one the host's `isPermittedCodingLocation` does not permit. A path that does not exist yet is checked as far as
 * it exists. This guards the client's own callbacks only: it is not an operating-system sandbox.
 */
export class CodingLocationGuard {
  private readonly root: string;

  constructor(
    workspaceRootPath: string,
    private readonly isPermitted: CodingLocationPredicate,
  ) {
    this.root = path.resolve(workspaceRootPath);
  }

  /** The workspace root, resolved. */
  get workspaceRoot(): string {
    return this.root;
  }

  /** Decides one location; never throws for a hostile path. */
  async check(location: unknown): Promise<CodingLocationDecision> {
    if (typeof location !== 'string' || location.includes('\u0000') || !path.isAbsolute(location)) {
      return { ok: false, reason: 'not_absolute' };
    }
    if (location.split(SEGMENT_SEPARATOR).includes('..')) return { ok: false, reason: 'dot_segments' };
    const absolute = path.resolve(location);
    if (!isWithin(this.root, absolute)) return { ok: false, reason: 'outside_workspace' };
    if (await this.passesThroughLink(absolute)) return { ok: false, reason: 'symlink' };
    if (!this.permitted(absolute)) return { ok: false, reason: 'not_permitted' };
    return { ok: true, path: absolute };
  }

  /** The host's predicate; one that throws permits nothing. */
  private permitted(absolute: string): boolean {
    try {
      return this.isPermitted(absolute) === true;
    } catch {
      return false;
    }
  }

  /** Whether any existing component from the root down to `absolute` is a symbolic link. */
  private async passesThroughLink(absolute: string): Promise<boolean> {
    const segments = path.relative(this.root, absolute).split(path.sep).filter(Boolean);
    let current = this.root;
    for (const segment of segments) {
      current = path.join(current, segment);
      const stats = await lstat(current).catch(() => undefined);
      if (!stats) return false;
      if (stats.isSymbolicLink()) return true;
    }
    return false;
  }
}
