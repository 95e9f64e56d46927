import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { WildoConfigError } from '../engine/config/index.js';
import { startStubModels, type StubModels, type StubModelScript } from '../testing/stub-models.js';
import type { CliOutput } from './cli.output.js';
import { BACKEND_ENTRY_FILE } from './command-help.js';
import { resolveProjectRoot, type ProjectRootOptions } from './project-root.js';

const COMMAND = 'wildo dev';
const TSX_CLI = createRequire(import.meta.url).resolve('tsx/cli');
const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Options of `wildo dev`. */
export interface DevOptions extends ProjectRootOptions {
  /** The environment the backend runs with (the stand-ins' variables are added to it). */
  env: Readonly<Record<string, string | undefined>>;
  /** Answer model calls from local Anthropic and OpenAI stand-ins. */
  stubModels: boolean;
  /** A module (relative to `cwd`) whose default export scripts the stand-ins. */
  stubScript?: string;
  /** The backend entry (relative to `cwd`); default `<root>/backend-api/src/main.ts`. */
  entry?: string;
}

/** A mistake in the command line: one line, no stack. */
class DevError extends Error {
  override readonly name = 'DevError';
}

/** The entry file to run and the directory to run it from (the nearest one holding a tsconfig.json, as `npm start` does). */
function locateEntry(options: DevOptions): { entry: string; shown: string; cwd: string } {
  const entry =
    options.entry !== undefined
      ? path.resolve(options.cwd, options.entry)
      : path.join(resolveProjectRoot(options), BACKEND_ENTRY_FILE);
  const shown = path.relative(options.cwd, entry) || entry;
  if (!existsSync(entry))
    throw new DevError(
      `${COMMAND}: no backend entry at ${shown}; pass the file that starts the backend as --entry <file>.`,
    );
  let dir = path.dirname(entry);
  while (!existsSync(path.join(dir, 'tsconfig.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return { entry, shown, cwd: existsSync(path.join(dir, 'tsconfig.json')) ? dir : path.dirname(entry) };
}

/** The default export of the stub script, which must be a function. */
async function loadStubScript(cwd: string, file: string): Promise<StubModelScript> {
  const resolved = path.resolve(cwd, file);
  if (!existsSync(resolved)) throw new DevError(`${COMMAND}: no stub script at ${file}.`);
  const loaded: unknown = await import(pathToFileURL(resolved).href);
  const script = typeof loaded === 'object' && loaded !== null && 'default' in loaded ? loaded.default : undefined;
  if (typeof script !== 'function')
    throw new DevError(`${COMMAND}: ${file} has no default export function (request, vendor) => reply | undefined.`);
  return (request, vendor) => script(request, vendor);
}

/** Runs the child until it exits; SIGINT and SIGTERM are passed on to it. Resolves with the exit code to report. */
function supervise(child: ChildProcess): Promise<number> {
  let stopping = false;
  const forward = (signal: NodeJS.Signals) => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  return new Promise((resolve) => {
    child.once('error', () => resolve(1));
    child.once('close', (code, signal) => {
      for (const name of FORWARDED_SIGNALS) process.off(name, forward);
      // Stopped on request: a clean end, however the child went.
      resolve(stopping || signal !== null ? 0 : (code ?? 1));
    });
  });
}

function announceStubs(models: StubModels, scripted: boolean, output: CliOutput): void {
  output.out(
    `${COMMAND}: model calls go to local stand-ins (anthropic ${models.anthropic.baseURL}, openai ${models.openai.baseURL}); no provider account is used.`,
  );
  output.out(
    `${COMMAND}: ${scripted ? 'the stub script answers first; then ' : ''}"call <tool> {json}" in a message makes the model call that tool, a tool result is reported back, anything else is echoed.`,
  );
}

/**
 * Runs the backend under `tsx watch` (restarted when a file it imports changes), optionally against local model
 * stand-ins started in this process. Returns the exit code once the backend is stopped (Ctrl-C).
 */
export async function runDev(options: DevOptions, output: CliOutput): Promise<number> {
  let models: StubModels | undefined;
  try {
    if (options.stubScript !== undefined && !options.stubModels)
      throw new DevError(`${COMMAND}: --stub-script scripts the stand-ins; add --stub-models.`);
    const { entry, shown, cwd } = locateEntry(options);
    const script = options.stubScript !== undefined ? await loadStubScript(options.cwd, options.stubScript) : undefined;
    if (options.stubModels) {
      models = await startStubModels(script ? { script } : {});
      announceStubs(models, script !== undefined, output);
    }
    output.out(
      `${COMMAND}: running ${shown} with tsx watch; it restarts when a file it imports changes (Ctrl-C stops it).`,
    );
    const child = spawn(process.execPath, [TSX_CLI, 'watch', '--clear-screen=false', entry], {
      cwd,
      env: { ...options.env, ...models?.env },
      stdio: 'inherit',
    });
    return await supervise(child);
  } catch (error) {
    if (error instanceof DevError || error instanceof WildoConfigError) output.err(error.message);
    else output.err(`${COMMAND} failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await models?.close();
  }
}
