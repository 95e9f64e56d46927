import { describe, expect, it } from 'vitest';
import { createSilentLogger } from '../logging/index.js';
import { useSqlDatabaseHarness, type OpenSqlDatabaseHarness } from './sql-database.contract.js';
import type { SqlDatabase, SqlMigration } from './sql-database.js';
import { MIGRATIONS_TABLE, runMigrations } from './sql-migrations.js';

let runCounter = 0;

/** Migration ids and table names unique within the run (the suite shares one database). */
function fresh(): { prefix: string; id: (n: number) => string; table: (name: string) => string } {
  runCounter += 1;
  const prefix = `m${String(runCounter).padStart(4, '0')}_`;
  return { prefix, id: (n) => `${prefix}${String(n).padStart(2, '0')}`, table: (name) => `${prefix}${name}` };
}

async function tableExists(db: SqlDatabase, table: string): Promise<boolean> {
  const { rows } = await db.query<{ oid: string | null }>('SELECT to_regclass($1)::text AS oid', [table]);
  return rows[0]?.oid !== null;
}

async function appliedIds(db: SqlDatabase, prefix: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM ${MIGRATIONS_TABLE} WHERE id LIKE $1 ORDER BY id`, [
    `${prefix.replace(/_/g, '\\_')}%`,
  ]);
  return rows.map((row) => row.id);
}

/** Two migrations where the second needs the first: applying them out of order would fail. */
function dependentPair(names: ReturnType<typeof fresh>): SqlMigration[] {
  const parent = names.table('parent');
  return [
    {
      id: names.id(2),
      sql: `CREATE TABLE ${names.table('child')} (id int PRIMARY KEY, parent_id int REFERENCES ${parent}(id));`,
    },
    { id: names.id(1), sql: `CREATE TABLE ${parent} (id int PRIMARY KEY); INSERT INTO ${parent} VALUES (1);` },
  ];
}

/** The behaviour of {@link runMigrations} on an engine. */
export function describeMigrationsContract(label: string, open: OpenSqlDatabaseHarness): void {
  describe(`runMigrations: ${label}`, () => {
    const harness = useSqlDatabaseHarness(open);
    const db = () => harness().database;
    const logger = createSilentLogger();

    it('applies pending migrations in id order, whatever the order given', async () => {
      const names = fresh();
      const result = await runMigrations(db(), dependentPair(names), logger);
      expect(result.applied).toEqual([names.id(1), names.id(2)]);
      expect(await tableExists(db(), names.table('child'))).toBe(true);
    });

    it('is idempotent: a second run applies nothing', async () => {
      const names = fresh();
      await runMigrations(db(), dependentPair(names), logger);
      const again = await runMigrations(db(), dependentPair(names), logger);
      expect(again.applied).toEqual([]);
      expect(again.skipped).toEqual([names.id(1), names.id(2)]);
      expect(await appliedIds(db(), names.prefix)).toEqual([names.id(1), names.id(2)]);
    });

    it('applies only the new migration when one is added', async () => {
      const names = fresh();
      await runMigrations(db(), dependentPair(names), logger);
      const added = { id: names.id(3), sql: `ALTER TABLE ${names.table('child')} ADD COLUMN note text;` };
      expect((await runMigrations(db(), [...dependentPair(names), added], logger)).applied).toEqual([names.id(3)]);
    });

    it('refuses an applied migration whose SQL changed, naming it and the fix; unchanged SQL passes', async () => {
      const names = fresh();
      const original = { id: names.id(1), sql: `CREATE TABLE ${names.table('a')} (id int);` };
      await runMigrations(db(), [original], logger);
      const edited = { ...original, sql: `CREATE TABLE ${names.table('a')} (id bigint);` };
      await expect(runMigrations(db(), [edited], logger)).rejects.toThrow(
        new RegExp(`${names.id(1)}.*changed.*new migration`),
      );
      await expect(runMigrations(db(), [original], logger)).resolves.toMatchObject({ applied: [] });
    });

    it('treats a change of line endings only as unchanged', async () => {
      const names = fresh();
      const original = { id: names.id(1), sql: `CREATE TABLE ${names.table('a')} (\n  id int\n);` };
      await runMigrations(db(), [original], logger);
      await expect(
        runMigrations(db(), [{ ...original, sql: original.sql.replace(/\n/g, '\r\n') }], logger),
      ).resolves.toMatchObject({ applied: [] });
    });

    it('refuses duplicated ids before applying anything', async () => {
      const names = fresh();
      const duplicated = [
        { id: names.id(1), sql: `CREATE TABLE ${names.table('a')} (id int);` },
        { id: names.id(1), sql: `CREATE TABLE ${names.table('b')} (id int);` },
      ];
      await expect(runMigrations(db(), duplicated, logger)).rejects.toThrow(new RegExp(`${names.id(1)}.*used twice`));
      expect(await tableExists(db(), names.table('a'))).toBe(false);
    });

    it('rolls back a failing migration entirely, keeps the earlier ones and names the failure', async () => {
      const names = fresh();
      const migrations = [
        { id: names.id(1), sql: `CREATE TABLE ${names.table('ok')} (id int);` },
        {
          id: names.id(2),
          sql: `CREATE TABLE ${names.table('partial')} (id int); SELECT * FROM ${names.table('missing')};`,
        },
      ];
      await expect(runMigrations(db(), migrations, logger)).rejects.toThrow(new RegExp(`${names.id(2)}.*failed`));
      expect(await tableExists(db(), names.table('ok'))).toBe(true);
      expect(await tableExists(db(), names.table('partial'))).toBe(false);
      expect(await appliedIds(db(), names.prefix)).toEqual([names.id(1)]);
    });

    it('applies each migration once when replicas run concurrently', async () => {
      const names = fresh();
      const counter = names.table('counter');
      const migrations = [
        { id: names.id(1), sql: `CREATE TABLE ${counter} (n int);` },
        { id: names.id(2), sql: `INSERT INTO ${counter} VALUES (1);` },
        { id: names.id(3), sql: `INSERT INTO ${counter} VALUES (1);` },
      ];
      const replica = await harness().openReplica();
      const results = await Promise.all(
        [db(), replica, db(), replica].map((target) => runMigrations(target, migrations, logger)),
      );
      expect(results.flatMap((result) => result.applied).sort()).toEqual([names.id(1), names.id(2), names.id(3)]);
      expect((await db().query(`SELECT count(*) AS n FROM ${counter}`)).rows).toEqual([{ n: '2' }]);
    });
  });
}
