import type pg from 'pg';
import type { SqlStatementPlan } from './sql-statement.js';

/** A table the statement reads, and what protected it when the binding was checked. */
export interface ProtectedTable {
  oid: number;
  /** `schema.table` */
  name: string;
  policies: number;
}

/** What the database says about a binding: its problems (each with the fix) and the tables row security guards. */
export interface SqlSafetyReport {
  role: string;
  problems: string[];
  tables: ProtectedTable[];
}

interface RelationRow {
  oid: number;
  name: string;
  relkind: string;
  rls: boolean;
  forced: boolean;
  owner: number;
  owner_name: string;
  invoker: boolean;
  policies: number;
}

interface RoleRow {
  oid: number;
  name: string;
  super: boolean;
  bypass: boolean;
}

type Client = Pick<pg.ClientBase, 'query'>;

const RELATIONS = `
SELECT c.oid::int AS oid, quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name, c.relkind::text AS relkind,
  c.relrowsecurity AS rls, c.relforcerowsecurity AS forced, c.relowner::int AS owner,
  pg_get_userbyid(c.relowner) AS owner_name,
  EXISTS (SELECT 1 FROM unnest(coalesce(c.reloptions, '{}')) o
          WHERE lower(o) IN ('security_invoker=true', 'security_invoker=on', 'security_invoker=1', 'security_invoker=yes')) AS invoker,
  (SELECT count(*) FROM pg_policy p WHERE p.polrelid = c.oid)::int AS policies
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.oid = ANY($1::oid[]) AND n.nspname NOT IN ('pg_catalog', 'information_schema')`;

const DEPENDENCIES = `
SELECT DISTINCT d.refobjid::int AS oid
FROM pg_rewrite r JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid
WHERE r.ev_class = $1::oid AND d.refclassid = 'pg_class'::regclass AND d.refobjid <> r.ev_class`;

const ROLE = `SELECT oid::int AS oid, rolname AS name, rolsuper AS super, rolbypassrls AS bypass FROM pg_roles WHERE oid = $1`;

async function roleOf(client: Client, oid: number): Promise<RoleRow> {
  const { rows } = await client.query<RoleRow>(ROLE, [oid]);
  return rows[0] as RoleRow;
}

async function owns(client: Client, role: number, owner: number): Promise<boolean> {
  const { rows } = await client.query<{ owns: boolean }>(`SELECT pg_has_role($1::oid, $2::oid, 'USAGE') AS owns`, [
    role,
    owner,
  ]);
  return rows[0]?.owns === true;
}

/** A role that row-level security never filters: why, and the fix. */
function bypassProblem(role: RoleRow, how: string): string | undefined {
  if (role.super)
    return `${how} "${role.name}", a superuser: row-level security does not apply to it; connect as a role without SUPERUSER`;
  if (role.bypass)
    return `${how} "${role.name}", which has BYPASSRLS: row-level security does not apply to it; ALTER ROLE ${role.name} NOBYPASSRLS, or connect as another role`;
  return undefined;
}

/** The relations the statement names directly, read from a throw-away view (rolled back). */
async function directRelations(client: Client, plan: SqlStatementPlan): Promise<number[]> {
  // Parameters become NULL: the view is never queried, only its dependencies are read.
  const body = plan.sql.replace(/\$\d+/g, 'NULL');
  await client.query('BEGIN');
  try {
    await client.query(`CREATE TEMP VIEW wildo_connector_probe AS ${body}`);
    const probe = await client.query<{ oid: number }>(
      `SELECT 'pg_temp.wildo_connector_probe'::regclass::oid::int AS oid`,
    );
    const { rows } = await client.query<{ oid: number }>(DEPENDENCIES, [probe.rows[0]?.oid]);
    return rows.map((row) => row.oid);
  } finally {
    await client.query('ROLLBACK');
  }
}

/**
 * Checks, with the binding's own connection, that row-level security will filter what the statement reads: the
 * connection role is neither a superuser nor BYPASSRLS; every table the statement reads (through views too) has row
 * security on and at least one policy, and is not owned by the role that reads it (the connection role, or the owner
 * of a view that runs with its owner's rights). Materialized views and foreign tables cannot be filtered and are
 * refused. Each problem names the fix.
 */
export async function checkSqlSafety(client: Client, plan: SqlStatementPlan): Promise<SqlSafetyReport> {
  const { rows } = await client.query<{ oid: number }>(
    'SELECT oid::int AS oid FROM pg_roles WHERE rolname = current_user',
  );
  const connection = await roleOf(client, rows[0]?.oid as number);
  const problems: string[] = [];
  const refused = bypassProblem(connection, 'the connection logs in as');
  if (refused) return { role: connection.name, problems: [refused], tables: [] };
  await client.query({ text: `EXPLAIN ${plan.sql}`, values: plan.params.map(() => null) });

  const tables = new Map<number, ProtectedTable>();
  const queue = (await directRelations(client, plan)).map((oid) => ({ oid, reader: connection, via: '' }));
  const seen = new Set<string>();
  while (queue.length > 0) {
    const next = queue.shift() as { oid: number; reader: RoleRow; via: string };
    const key = `${next.oid}:${next.reader.oid}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const relation = (await client.query<RelationRow>(RELATIONS, [[next.oid]])).rows[0];
    if (!relation) continue;
    const via = next.via ? ` (through view ${next.via})` : '';
    if (relation.relkind === 'v') {
      const reader = relation.invoker ? next.reader : await roleOf(client, relation.owner);
      const viewProblem = relation.invoker
        ? undefined
        : bypassProblem(reader, `view ${relation.name} runs with the rights of its owner`);
      if (viewProblem) {
        problems.push(`${viewProblem}, or ALTER VIEW ${relation.name} SET (security_invoker = true)`);
        continue;
      }
      for (const { oid } of (await client.query<{ oid: number }>(DEPENDENCIES, [relation.oid])).rows)
        queue.push({ oid, reader, via: relation.name });
    } else if (relation.relkind === 'm' || relation.relkind === 'f') {
      problems.push(
        `${relation.name}${via} is a ${relation.relkind === 'm' ? 'materialized view' : 'foreign table'}, which row-level security cannot filter; read its tables or a view with security_invoker = true`,
      );
    } else if (relation.relkind === 'r' || relation.relkind === 'p') {
      const problem = await tableProblem(client, relation, next.reader, connection, via);
      if (problem) problems.push(problem);
      else tables.set(relation.oid, { oid: relation.oid, name: relation.name, policies: relation.policies });
    }
  }
  if (problems.length === 0 && tables.size === 0)
    problems.push('the statement reads no table: a SQL binding reads tenant data under row-level security');
  return { role: connection.name, problems, tables: [...tables.values()] };
}

async function tableProblem(
  client: Client,
  table: RelationRow,
  reader: RoleRow,
  connection: RoleRow,
  via: string,
): Promise<string | undefined> {
  if (!table.forced && (await owns(client, reader.oid, table.owner))) {
    const who = reader.oid === connection.oid ? 'the connection role' : `the owner of the view`;
    const through = table.owner_name === reader.name ? '' : ` (as a member of its owner "${table.owner_name}")`;
    return `${who} "${reader.name}" owns table ${table.name}${through}${via}, and row-level security does not apply to a table's owner; connect as a role that does not own it, or ALTER TABLE ${table.name} FORCE ROW LEVEL SECURITY`;
  }
  if (!table.rls)
    return `row-level security is off on table ${table.name}${via}; ALTER TABLE ${table.name} ENABLE ROW LEVEL SECURITY and create a policy that reads the identity settings`;
  if (table.policies === 0)
    return `table ${table.name}${via} has no row-level-security policy (was it dropped?); CREATE POLICY ... ON ${table.name} USING (...current_setting('wildo.principal', true)...)`;
  return undefined;
}

/** The per-call check: how many of the tables still have row security on, and how many policies they have. */
export const PROTECTION_COLUMNS = `
  (SELECT count(*) FROM pg_class c WHERE c.oid = ANY($1::oid[]) AND c.relrowsecurity)::int AS secured,
  (SELECT count(*) FROM pg_policy p WHERE p.polrelid = ANY($1::oid[]))::int AS policies`;

/** What changed since start on the tables a binding reads: undefined when they are still protected as checked. */
export function protectionLost(
  tables: readonly ProtectedTable[],
  now: { secured: number; policies: number },
): string | undefined {
  const policies = tables.reduce((sum, table) => sum + table.policies, 0);
  if (now.secured < tables.length) return 'row-level security was turned off on a table it reads';
  if (now.policies < policies) return 'a row-level-security policy of a table it reads was dropped';
  return undefined;
}
