import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A schema of the benchmark's own on the PostgreSQL server, so a run touches nothing else there. */
export interface BenchSchema {
  readonly name: string;
  /** Drops the schema and everything in it; safe to call more than once. */
  drop(): Promise<void>;
}

async function run(connectionString: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString, application_name: 'wildo-bench' });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates a randomly named schema (`wbench_<hex>`: recognisable should a killed run leave one behind). */
export async function createBenchSchema(connectionString: string): Promise<BenchSchema> {
  const name = `wbench_${randomBytes(6).toString('hex')}`;
  await run(connectionString, `CREATE SCHEMA ${name}`);
  let dropped: Promise<void> | undefined;
  return {
    name,
    drop: () => (dropped ??= run(connectionString, `DROP SCHEMA IF EXISTS ${name} CASCADE`)),
  };
}
