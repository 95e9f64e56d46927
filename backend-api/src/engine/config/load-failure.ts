import path from 'node:path';

const MAX_REASON_LINES = 6;

/**
 * The part of a module's load failure worth showing (a config file, an application file): the message's first
 * lines, without colours, stack frames, the require stack or the absolute `base` directory.
 */
export function describeLoadFailure(error: unknown, base: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const named = error instanceof Error && !/^\w*Error\b/.test(message) ? `${error.name}: ${message}` : message;
  const lines: string[] = [];
  // oxlint-disable-next-line no-control-regex -- ESC starts the terminal colour codes a loader error may carry; they are stripped.
  for (const line of named.replace(/\u001b\[[0-9;]*m/g, '').split('\n')) {
    if (/^\s*Require stack:/.test(line)) break;
    if (/^\s+at /.test(line) || line.trim() === '') continue;
    lines.push(line.trim().split(`${base}${path.sep}`).join(''));
  }
  return lines.slice(0, MAX_REASON_LINES).join('\n');
}
