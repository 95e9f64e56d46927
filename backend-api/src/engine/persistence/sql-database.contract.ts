import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockForTransaction } from './sql-advisory-locks.js';
import type { SqlDatabase } from './sql-database.js';

/** A database opened for a contract suite, with a way to open a second replica on the same data. */
export interface SqlDatabaseHarness {
  database: SqlDatabase;
  /** Another handle on the same data, as a second replica would open it. */
  openReplica(): Promise<SqlDatabase>;
  /** Closes the database, its replicas and whatever the harness created. */
  close(): Promise<void>;
}

/** Opens a harness for a suite. */
export type OpenSqlDatabaseHarness = () => Promise<SqlDatabaseHarness>;

/** PGlite boots a WASM PostgreSQL: seconds on a busy machine. */
export const HARNESS_TIMEOUT_MS = 120_000;

/** Opens the harness before the suite's tests and closes it after them; returns its accessor. */
export function useSqlDatabaseHarness(open: OpenSqlDatabaseHarness): () => SqlDatabaseHarness {
  let harness: SqlDatabaseHarness | undefined;
  beforeAll(async () => {
    harness = await open();
  }, HARNESS_TIMEOUT_MS);
  afterAll(async () => {
    await harness?.close();
  }, HARNESS_TIMEOUT_MS);
  return () => {
    if (harness === undefined) throw new Error('The harness did not open.');
    return harness;
  };
}

let tableCounter = 0;

/** A table name unique within the run (the suite shares one database). */
function freshTable(): string {
  tableCounter += 1;
  return `contract_t${tableCounter}`;
}

function describeValues(db: () => SqlDatabase): void {
  it('binds parameters and returns rows', async () => {
    const { rows } = await db().query<{ greeting: string }>('SELECT $1::text AS greeting', ['hello']);
    expect(rows).toEqual([{ greeting: 'hello' }]);
  });

  it('reports affected rows for writes and 0 for reads', async () => {
    const table = freshTable();
    await db().exec(`CREATE TABLE ${table} (id int PRIMARY KEY, v text)`);
    expect((await db().query(`INSERT INTO ${table} VALUES (1, 'a'), (2, 'b'), (3, 'c')`)).affectedRows).toBe(3);
    expect((await db().query(`UPDATE ${table} SET v = 'z' WHERE id > $1 RETURNING id`, [1])).affectedRows).toBe(2);
    expect((await db().query(`DELETE FROM ${table} WHERE id = $1`, [1])).affectedRows).toBe(1);
    expect((await db().query(`SELECT * FROM ${table}`)).affectedRows).toBe(0);
  });

  it('returns int8 as exact decimal strings', async () => {
    const { rows } = await db().query<{ big: unknown; n: unknown; list: unknown }>(
      'SELECT 9007199254740993::int8 AS big, count(*) AS n, ARRAY[1, 2]::int8[] AS list FROM (VALUES (1), (2)) v(x)',
    );
    expect(rows).toEqual([{ big: '9007199254740993', n: '2', list: ['1', '2'] }]);
  });

  it('returns timestamptz as Date, timestamp as UTC Date and date as text', async () => {
    const { rows } = await db().query<{ tz: unknown; ts: unknown; d: unknown }>(
      "SELECT $1::timestamptz AS tz, '2024-05-06 07:08:09.123'::timestamp AS ts, '2024-05-06'::date AS d",
      ['2024-05-06T07:08:09.123Z'],
    );
    expect(rows[0]?.tz).toEqual(new Date('2024-05-06T07:08:09.123Z'));
    expect(rows[0]?.ts).toEqual(new Date('2024-05-06T07:08:09.123Z'));
    expect(rows[0]?.d).toBe('2024-05-06');
  });

  it('parses jsonb to objects and accepts JSON text as a parameter', async () => {
    const { rows } = await db().query<{ doc: unknown }>('SELECT $1::jsonb AS doc', [
      JSON.stringify({ a: [1, null, { b: 'c' }] }),
    ]);
    expect(rows[0]?.doc).toEqual({ a: [1, null, { b: 'c' }] });
  });

  it('runs a statement marked prepare like any other, also after its table changed', async () => {
    const table = freshTable();
    await db().exec(`CREATE TABLE ${table} (id int, v text); INSERT INTO ${table} VALUES (1, 'a'), (2, 'b');`);
    const text = `SELECT id, v FROM ${table} WHERE id = $1`;
    expect((await db().query(text, [1], { prepare: true })).rows).toEqual([{ id: 1, v: 'a' }]);
    await db().exec(`ALTER TABLE ${table} ADD COLUMN extra int`);
    expect((await db().query(text, [2], { prepare: true })).rows).toEqual([{ id: 2, v: 'b' }]);
  });

  it('runs several statements through exec', async () => {
    const table = freshTable();
    await db().exec(
      `CREATE TABLE ${table} (id int); INSERT INTO ${table} VALUES (1); INSERT INTO ${table} VALUES (2);`,
    );
    expect((await db().query(`SELECT count(*) AS n FROM ${table}`)).rows).toEqual([{ n: '2' }]);
  });
}

function describeTransactions(db: () => SqlDatabase): void {
  it('commits a transaction whose callback resolves, returning its value', async () => {
    const table = freshTable();
    await db().exec(`CREATE TABLE ${table} (id int)`);
    const value = await db().transaction(async (tx) => {
      await tx.query(`INSERT INTO ${table} VALUES ($1)`, [1]);
      return 'done';
    });
    expect(value).toBe('done');
    expect((await db().query(`SELECT id FROM ${table}`)).rows).toEqual([{ id: 1 }]);
  });

  it('rolls back query and exec writes when the callback throws, rethrowing its error', async () => {
    const table = freshTable();
    await db().exec(`CREATE TABLE ${table} (id int)`);
    const failure = new Error('boom');
    const attempt = db().transaction(async (tx) => {
      await tx.query(`INSERT INTO ${table} VALUES ($1)`, [1]);
      await tx.exec(`INSERT INTO ${table} VALUES (2); INSERT INTO ${table} VALUES (3);`);
      throw failure;
    });
    await expect(attempt).rejects.toBe(failure);
    expect((await db().query(`SELECT id FROM ${table}`)).rows).toEqual([]);
  });

  it('rolls back DDL too', async () => {
    const table = freshTable();
    await expect(
      db().transaction(async (tx) => {
        await tx.exec(`CREATE TABLE ${table} (id int)`);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect((await db().query('SELECT to_regclass($1) AS oid', [table])).rows).toEqual([{ oid: null }]);
  });

  it('stays usable after a statement fails inside a transaction', async () => {
    await expect(db().transaction((tx) => tx.query('SELECT * FROM no_such_table_anywhere'))).rejects.toThrow(
      /no_such_table_anywhere/,
    );
    expect((await db().query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('refuses statements on a transaction handle after the transaction ended', async () => {
    let leaked: Parameters<Parameters<SqlDatabase['transaction']>[0]>[0] | undefined;
    await db().transaction(async (tx) => {
      leaked = tx;
    });
    await expect(leaked?.query('SELECT 1')).rejects.toThrow();
  });

  it('takes the transaction-scoped advisory lock used to serialize schema work', async () => {
    await expect(db().transaction((tx) => lockForTransaction(tx, 'migrations'))).resolves.toBeUndefined();
    // Released at commit: taking it again does not wait.
    await expect(db().transaction((tx) => lockForTransaction(tx, 'migrations'))).resolves.toBeUndefined();
  });
}

/**
 * The behaviour every {@link SqlDatabase} must show (the values callers see are the same on every
 * engine). `open` is called once for the suite.
 */
export function describeSqlDatabaseContract(label: string, open: OpenSqlDatabaseHarness): void {
  describe(`SqlDatabase contract: ${label}`, () => {
    const harness = useSqlDatabaseHarness(open);
    const db = () => harness().database;
    describe('values', () => describeValues(db));
    describe('transactions', () => describeTransactions(db));
  });
}
