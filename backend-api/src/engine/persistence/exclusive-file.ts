import { randomBytes } from 'node:crypto';
import { link, rename, rm, writeFile } from 'node:fs/promises';

/** File systems without hard links answer `link` with one of these; there an `O_EXCL` create stands in. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** `<file>.<pid>.<random>.tmp`: a file being prepared beside `file`, named so a leftover can be traced to its process. */
export function tempFileFor(file: string): string {
  return `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
}

async function writeTemp(file: string, content: string, mode: number): Promise<string> {
  const temp = tempFileFor(file);
  await writeFile(temp, content, { flag: 'wx', mode });
  return temp;
}

/**
 * Creates `file` holding `content` unless it exists; resolves `false` when it does. The content is written to a
 * temporary file first and hard-linked into place, so nobody ever reads `file` empty or half written (a plain
 * `O_EXCL` create would show an empty file until the write lands).
 *
 * @example
 * if (!(await createFileExclusively('/data/wildo.lock', JSON.stringify(record)))) refuse();
 */
export async function createFileExclusively(file: string, content: string, mode = 0o644): Promise<boolean> {
  const temp = await writeTemp(file, content, mode);
  try {
    await link(temp, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return false;
    if (!NO_HARD_LINKS.has(code)) throw error;
  } finally {
    await rm(temp, { force: true });
  }
  try {
    await writeFile(file, content, { flag: 'wx', mode });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Replaces `file` with `content` in one step (write beside, then rename over it): readers see the old or the new text. */
export async function replaceFile(file: string, content: string, mode = 0o644): Promise<void> {
  const temp = await writeTemp(file, content, mode);
  try {
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
