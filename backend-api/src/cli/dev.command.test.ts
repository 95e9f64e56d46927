import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { BackendEnvironmentSchema } from '../environment.schema.js';

// `wildo dev` as a developer runs it (the real bin, in a child process), on a small entry standing in for the
// backend: it asks the Anthropic API named by its environment for a reply and prints it. Its answers show that the
// stand-ins run and the entry is pointed at them; editing the entry shows the restart.

const bin = path.resolve(import.meta.dirname, '../../bin/wildo.mjs');
const repositoryRoot = path.resolve(import.meta.dirname, '../../..');
const env = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !Object.hasOwn(BackendEnvironmentSchema.shape, name)),
);
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const groupAlive = (pgid: number) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Whether the process group `pgid` is empty within 10 s (checked every 100 ms). */
async function groupEnds(pgid: number): Promise<boolean> {
  for (let waited = 0; waited < 10_000; waited += 100) {
    if (!groupAlive(pgid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return !groupAlive(pgid);
}

/** An entry that prints `ready <version> <the model's reply>` and stays up. */
const entrySource = (version: string) => `
const response = await fetch(\`\${process.env.ANTHROPIC_BASE_URL}/v1/messages\`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-key': process.env.ANTHROPIC_API_KEY ?? '' },
  body: JSON.stringify({ model: 'claude-sonnet-5', max_tokens: 64, messages: [{ role: 'user', content: 'hello from ${version}' }] }),
});
const body: { content: { text: string }[] } = await response.json();
console.log(\`ready ${version} \${body.content[0]?.text}\`);
setInterval(() => undefined, 60_000);
`;

/** Spawns `wildo dev` and collects its stdout lines; `next(pattern)` resolves with the first line after the last one matched. */
function startDev(args: string[]) {
  // Its own process group, so a failed test can stop the watcher and the entry too.
  const child: ChildProcess = spawn(process.execPath, [bin, 'dev', ...args], {
    cwd: repositoryRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(line)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  cleanups.push(async () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The group has already ended.
    }
    await exited;
  });
  const next = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`no line matching ${pattern} in 60 s; stdout:\n${lines.join('\n')}\nstderr:\n${stderr}`)),
        60_000,
      );
      waiters.push({ pattern, resolve: (line) => (clearTimeout(timer), resolve(line)) });
    });
  return { child, lines, next, exited, stderr: () => stderr };
}

describe('wildo dev', () => {
  it('runs the entry against the stand-in models and restarts it when the entry changes', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'wildo-dev-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const entry = path.join(dir, 'entry.mts');
    await writeFile(entry, entrySource('v1'));

    const dev = startDev(['--stub-models', '--entry', entry]);
    expect(await dev.next(/^ready v1 /)).toBe('ready v1 Echo: hello from v1');
    expect(dev.lines.join('\n')).toContain('wildo dev: model calls go to local stand-ins (anthropic http://127.0.0.1:');

    await writeFile(entry, entrySource('v2'));
    expect(await dev.next(/^ready v2 /)).toBe('ready v2 Echo: hello from v2');

    dev.child.kill('SIGTERM');
    expect(await dev.exited).toBe(0);
    // The watcher and the entry stop with it: soon nothing is left in its process group (esbuild's service, a
    // grandchild, notices its parent's exit on its own: no event tells this process when).
    expect(await groupEnds(dev.child.pid ?? 0)).toBe(true);
  }, 120_000);

  it('refuses --stub-script without --stub-models, and a missing entry, in one line', async () => {
    const scriptOnly = startDev(['--stub-script', 'script.ts']);
    expect(await scriptOnly.exited).toBe(1);
    expect(scriptOnly.stderr()).toBe('wildo dev: --stub-script scripts the stand-ins; add --stub-models.\n');

    const missing = startDev(['--entry', 'nowhere.ts']);
    expect(await missing.exited).toBe(1);
    expect(missing.stderr()).toBe(
      'wildo dev: no backend entry at nowhere.ts; pass the file that starts the backend as --entry <file>.\n',
    );
  }, 60_000);
});
