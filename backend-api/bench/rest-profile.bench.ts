import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { assertAnswersTodo, runLoad, type LoadRequest } from './bench-load.js';
import { createBenchSchema } from './bench-postgres-schema.js';
import type { BenchTarget } from './bench-protocol.js';
import { benchRunResources, startBenchServer } from './bench-server-process.js';
import { breakdown, selfTimesOf, type BreakdownRow } from './cpu-profile-breakdown.js';

const USAGE = `Usage: pnpm bench:rest:profile [--duration <s>] [--top <n>] [--out <dir>]

Profiles the server child (V8 sampling profiler, 100 µs) while it serves GET one todo, first through the framework,
then through the bare Express handler, and prints the self time per request of each place in the code (our files,
packages, Node internals, GC) on both sides, largest difference first. On PostgreSQL when DATABASE_URL is set (the
database's own work stays out of the process), else on PGlite. The .cpuprofile files stay in --out for DevTools.

  --duration <s>  seconds of profiled load per side (default 10)
  --top <n>       rows to print (default 25)
  --out <dir>     where to write the profiles (default a new folder under the system's temporary directory)`;

const progress = (message: string) => process.stderr.write(`${message}\n`);
const { schemas, release: releaseAll } = benchRunResources(progress);
const CONNECTIONS = 10;

function options() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string' },
      top: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) return null;
  const positive = (name: string, raw: string | undefined, fallback: number) => {
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer.\n\n${USAGE}`);
    return value;
  };
  return {
    durationSeconds: positive('duration', values.duration, 10),
    top: positive('top', values.top, 25),
    out: values.out ?? path.join(os.tmpdir(), `wildo-rest-profile-${Date.now()}`),
  };
}

const micros = (value: number) => value.toFixed(1).padStart(10);

function format(rows: BreakdownRow[], top: number, totals: { framework: number; bare: number }): string {
  const lines = [
    `${'place'.padEnd(64)}${'framework'.padStart(10)}${'bare'.padStart(10)}${'extra'.padStart(10)}   (self µs per request)`,
  ];
  for (const row of rows.slice(0, top))
    lines.push(`${row.place.slice(-64).padEnd(64)}${micros(row.framework)}${micros(row.bare)}${micros(row.extra)}`);
  const rest = rows
    .slice(top)
    .reduce((sum, row) => ({ framework: sum.framework + row.framework, bare: sum.bare + row.bare }), {
      framework: 0,
      bare: 0,
    });
  lines.push(
    `${`(${Math.max(rows.length - top, 0)} other places)`.padEnd(64)}${micros(rest.framework)}${micros(rest.bare)}${micros(rest.framework - rest.bare)}`,
  );
  lines.push(
    `${'total sampled'.padEnd(64)}${micros(totals.framework)}${micros(totals.bare)}${micros(totals.framework - totals.bare)}`,
  );
  return lines.join('\n');
}

async function profileTarget(target: BenchTarget, settings: NonNullable<ReturnType<typeof options>>): Promise<string> {
  await mkdir(settings.out, { recursive: true });
  const server = await startBenchServer(target);
  try {
    const { frameworkUrl, bareUrl, todoPath, todoId, token } = server.ready;
    const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
    const sides: LoadRequest[] = [
      { label: 'framework', url: `${frameworkUrl}${todoPath}`, headers },
      { label: 'bare', url: `${bareUrl}${todoPath}`, headers },
    ];
    for (const side of sides) await assertAnswersTodo(side, todoId);
    progress('warming up (4 s each)…');
    for (const side of sides) await runLoad(side, { connections: CONNECTIONS, durationSeconds: 4 });
    const measured = [];
    for (const side of sides) {
      progress(`profiling ${side.label} (${settings.durationSeconds} s)…`);
      const file = path.join(settings.out, `${target.backend}-${side.label}.cpuprofile`);
      server.startProfile();
      const load = await runLoad(side, { connections: CONNECTIONS, durationSeconds: settings.durationSeconds });
      await server.stopProfile(file);
      measured.push({ requests: load.requests, times: await selfTimesOf(file) });
    }
    const [framework, bare] = measured as [(typeof measured)[number], (typeof measured)[number]];
    const total = (times: Map<string, number>, requests: number) =>
      [...times.values()].reduce((sum, value) => sum + value, 0) / requests;
    const rows = breakdown(framework.times, framework.requests, bare.times, bare.requests);
    return [
      `GET one todo on ${target.backend === 'postgres' ? 'PostgreSQL' : 'PGlite'}: ${framework.requests} framework and ${bare.requests} bare requests profiled; profiles in ${settings.out}`,
      format(rows, settings.top, {
        framework: total(framework.times, framework.requests),
        bare: total(bare.times, bare.requests),
      }),
    ].join('\n');
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const settings = options();
  if (!settings) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    process.stdout.write(`${await profileTarget({ backend: 'pglite' }, settings)}\n`);
    return;
  }
  const schema = await createBenchSchema(databaseUrl);
  schemas.add(schema);
  try {
    process.stdout.write(
      `${await profileTarget({ backend: 'postgres', connectionString: databaseUrl, schema: schema.name }, settings)}\n`,
    );
  } finally {
    await schema.drop();
    schemas.delete(schema);
  }
}

main().catch(async (error: unknown) => {
  process.exitCode = 1;
  progress(`bench:rest:profile failed: ${error instanceof Error ? error.message : String(error)}`);
  await releaseAll();
});
