import { constants } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import {
  RequestError,
  type ReadTextFileRequest,
  type ReadTextFileResponse,
  type WriteTextFileRequest,
} from '@agentclientprotocol/sdk';
import type { CodingAgent_RefusalReason } from '@wildo/shared-lib';
import type { CodingLocationGuard } from './coding-location.guard.js';
import type { CodingRunEvents } from './coding-run.events.js';

/** Bytes of one file the agent may read or write through the client. */
export const MAX_CLIENT_FILE_BYTES = 8 * 1024 * 1024;

/** What the agent is told when a file call is refused: the reason, never the policy behind it. */
export function refusal(reason: CodingAgent_RefusalReason): RequestError {
  if (reason === 'not_found') return RequestError.resourceNotFound();
  return RequestError.invalidParams({ reason }, `refused by the client (${reason})`);
}

/**
 * The client's file-system callbacks: the only way the agent reads or writes the workspace through the client.
 * Every call passes the location guard (workspace, `..`, symbolic links, the task's predicate) and, for writes,
 * the ceiling; the final component is opened without following a link, and a file hard-linked elsewhere is not
 * written. Each call and its decision go to the run record.
 */
export class CodingFiles {
  constructor(
    private readonly guard: CodingLocationGuard,
    private readonly writable: boolean,
    private readonly events: CodingRunEvents,
  ) {}

  /** `fs/read_text_file`: the file's text, optionally from `line` (1-based) for `limit` lines. */
  async read(params: ReadTextFileRequest): Promise<ReadTextFileResponse> {
    const decision = await this.guard.check(params.path);
    if (!decision.ok) throw this.refuse('read', params.path, decision.reason);
    let text: string;
    try {
      text = await readNoFollow(decision.path);
    } catch (error) {
      throw this.refuse('read', params.path, fileFailure(error));
    }
    this.events.emit({ type: 'file', access: 'read', path: decision.path, decision: 'allowed' });
    return { content: sliceLines(text, params.line, params.limit) };
  }

  /** `fs/write_text_file`: replaces (or creates) the file, creating missing directories inside the permitted area. */
  async write(params: WriteTextFileRequest): Promise<Record<string, never>> {
    if (!this.writable) throw this.refuse('write', params.path, 'above_ceiling');
    const decision = await this.guard.check(params.path);
    if (!decision.ok) throw this.refuse('write', params.path, decision.reason);
    if (Buffer.byteLength(params.content, 'utf8') > MAX_CLIENT_FILE_BYTES) {
      throw this.refuse('write', params.path, 'too_large');
    }
    try {
      await writeNoFollow(decision.path, params.content).catch(async (error: unknown) => {
        // A file in a directory not created yet: the guard admitted the whole path, so its directories may be made.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        await mkdir(path.dirname(decision.path), { recursive: true });
        await writeNoFollow(decision.path, params.content);
      });
    } catch (error) {
      throw this.refuse('write', params.path, fileFailure(error));
    }
    this.events.emit({ type: 'file', access: 'write', path: decision.path, decision: 'allowed' });
    return {};
  }

  private refuse(access: 'read' | 'write', requested: unknown, reason: CodingAgent_RefusalReason): RequestError {
    const shown = typeof requested === 'string' ? requested : String(requested);
    this.events.emit({ type: 'file', access, path: shown, decision: 'refused', reason });
    return refusal(reason);
  }
}

class HardLinkError extends Error {}

/** Why a file call failed after its location was admitted (a link swapped in meanwhile reads as `symlink`). */
function fileFailure(error: unknown): CodingAgent_RefusalReason {
  if (error instanceof RangeError) return 'too_large';
  if (error instanceof HardLinkError) return 'hard_link';
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return 'symlink';
  return code === 'ENOENT' || code === 'ENOTDIR' ? 'not_found' : 'unsupported';
}

/** Reads a regular file without following a link in its last component, within the size limit. */
async function readNoFollow(file: string): Promise<string> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw Object.assign(new Error('not a file'), { code: 'ENOENT' });
    if (stats.size > MAX_CLIENT_FILE_BYTES) throw new RangeError('too large');
    return await handle.readFile({ encoding: 'utf8' });
  } finally {
    await handle.close();
  }
}

/** Writes without following a link in the last component; a file with other hard links is refused. */
async function writeNoFollow(file: string, content: string): Promise<void> {
  const handle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw Object.assign(new Error('not a file'), { code: 'ENOENT' });
    // Writing through a second hard link would change a file that may live outside the permitted locations.
    if (stats.nlink > 1) throw new HardLinkError();
    await handle.truncate(0);
    await handle.writeFile(content, { encoding: 'utf8' });
  } finally {
    await handle.close();
  }
}

/** `line` is 1-based; `limit` counts lines. Absent or invalid values leave the text whole. */
function sliceLines(text: string, line: number | null | undefined, limit: number | null | undefined): string {
  const start = typeof line === 'number' && line > 1 ? Math.floor(line) - 1 : 0;
  const count = typeof limit === 'number' && limit >= 0 ? Math.floor(limit) : undefined;
  if (start === 0 && count === undefined) return text;
  const lines = text.split('\n');
  return lines.slice(start, count === undefined ? undefined : start + count).join('\n');
}
