/**
 * What the benchmark runner and its server child say to each other. The child gets its target as one JSON
 * argument and answers over the IPC channel that `fork` opens; it never writes to stdout, which belongs to
 * the runner's report (and to `--json`).
 */

/** The database a server child opens. */
export type BenchTarget =
  | { backend: 'pglite' }
  /** `schema` exists already: the runner creates and drops it, so a crashed child cannot leak it. */
  | { backend: 'postgres'; connectionString: string; schema: string };

/** Sent once the child listens and has seeded its data. */
export interface BenchServerReady {
  type: 'ready';
  /** Origin of the framework app, e.g. `http://127.0.0.1:41234`. */
  frameworkUrl: string;
  /** Origin of the bare Express app; it serves the same path. */
  bareUrl: string;
  /** `/api/v1/organizations/<org>/todos/<id>`, on both origins. */
  todoPath: string;
  todoId: string;
  /** A user access token (signup) that may read the todo. */
  token: string;
}

/** Sent when the child cannot start; it exits right after. */
export interface BenchServerFailed {
  type: 'failed';
  message: string;
}

/** The child's CPU time so far (`process.cpuUsage()`, microseconds), in answer to a {@link BenchServerCpuQuery}. */
export interface BenchServerCpuUsage {
  type: 'cpu-usage';
  user: number;
  system: number;
}

/** A CPU profile of the window between `profile-start` and `profile-stop`, written where the runner asked. */
export interface BenchServerProfileWritten {
  type: 'profile-written';
  path: string;
}

/** Every message a server child sends. */
export type BenchServerMessage = BenchServerReady | BenchServerFailed | BenchServerCpuUsage | BenchServerProfileWritten;

/** The runner's request that the child release everything and exit. */
export interface BenchServerStop {
  type: 'stop';
}

/** The runner asks for the child's CPU time (before and after each round). */
export interface BenchServerCpuQuery {
  type: 'cpu-usage';
}

/** The runner starts sampling the child's CPU (V8 profiler), to profile one measured window only. */
export interface BenchServerProfileStart {
  type: 'profile-start';
}

/** The runner stops sampling; the child writes the `.cpuprofile` to `path` and answers `profile-written`. */
export interface BenchServerProfileStop {
  type: 'profile-stop';
  path: string;
}

/** Every message the runner sends. */
export type BenchRunnerMessage =
  | BenchServerStop
  | BenchServerCpuQuery
  | BenchServerProfileStart
  | BenchServerProfileStop;

const typeOf = (value: unknown) => (value as { type?: unknown } | null)?.type;

/** Whether an IPC payload is a {@link BenchServerMessage}. */
export function isBenchServerMessage(value: unknown): value is BenchServerMessage {
  const type = typeOf(value);
  return type === 'ready' || type === 'failed' || type === 'cpu-usage' || type === 'profile-written';
}

/** Whether an IPC payload is a {@link BenchRunnerMessage}. */
export function isBenchRunnerMessage(value: unknown): value is BenchRunnerMessage {
  const type = typeOf(value);
  return type === 'stop' || type === 'cpu-usage' || type === 'profile-start' || type === 'profile-stop';
}
