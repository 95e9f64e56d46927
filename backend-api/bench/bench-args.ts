import { parseArgs } from 'node:util';

/** Settings of one `bench:rest` run. */
export interface BenchOptions {
  /** Print one JSON object on stdout instead of tables. */
  json: boolean;
  /** Seconds per measured round. */
  durationSeconds: number;
  connections: number;
  /** Measured rounds per server (framework and bare alternate within each). */
  rounds: number;
  /** Seconds of unmeasured load per server before the first round (JIT, pools, caches). */
  warmupSeconds: number;
  /** Directory for V8 CPU profiles of the server children. */
  cpuProfDir?: string;
}

/** Usage text of `bench:rest`. */
export const USAGE = `Usage: pnpm bench:rest [--json] [--duration <s>] [--connections <n>] [--rounds <n>] [--warmup <s>] [--cpu-prof <dir>]

Measures GET one todo through the full framework pipeline (user token) against a bare Express handler
doing the same SQL read, on PGlite (in memory) and, when DATABASE_URL is set, on PostgreSQL.

  --json             print the results as one JSON object on stdout (progress goes to stderr;
                     run \`pnpm -s bench:rest --json\` so pnpm does not echo the command there too)
  --duration <s>     seconds per measured round (default 5)
  --connections <n>  concurrent keep-alive connections (default 10)
  --rounds <n>       measured rounds per server, framework and bare alternating (default 3)
  --warmup <s>       seconds of unmeasured load per server first (default 8)
  --cpu-prof <dir>   write a V8 CPU profile of each server child into <dir>`;

function positive(name: string, raw: string | undefined, fallback: number, integer: boolean): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new Error(`--${name} must be a positive ${integer ? 'integer' : 'number'}, got "${raw}".\n\n${USAGE}`);
  }
  return value;
}

/** Parses the command line; returns null when `--help` was asked for. Throws with the usage on bad input. */
export function parseBenchArgs(argv: readonly string[]): BenchOptions | null {
  const { values } = parseArgs({
    // `pnpm bench:rest -- --json` forwards the separator too; it separates nothing here.
    args: argv.filter((arg) => arg !== '--'),
    options: {
      json: { type: 'boolean', default: false },
      duration: { type: 'string' },
      connections: { type: 'string' },
      rounds: { type: 'string' },
      warmup: { type: 'string' },
      'cpu-prof': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) return null;
  return {
    json: values.json,
    durationSeconds: positive('duration', values.duration, 5, false),
    connections: positive('connections', values.connections, 10, true),
    rounds: positive('rounds', values.rounds, 3, true),
    warmupSeconds: positive('warmup', values.warmup, 8, false),
    ...(values['cpu-prof'] === undefined ? {} : { cpuProfDir: values['cpu-prof'] }),
  };
}
