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

/** Every message a server child sends. */
export type BenchServerMessage = BenchServerReady | BenchServerFailed;

/** The runner's request that the child release everything and exit. */
export interface BenchServerStop {
  type: 'stop';
}

/** Whether an IPC payload is a {@link BenchServerMessage}. */
export function isBenchServerMessage(value: unknown): value is BenchServerMessage {
  const type = (value as { type?: unknown } | null)?.type;
  return type === 'ready' || type === 'failed';
}
