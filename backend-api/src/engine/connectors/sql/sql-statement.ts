import type { IdentityClaim, SqlOperationBinding } from '../connector.types.js';
import type { BindingProblem } from '../response-mapping.js';

/** The claims a binding may pass to the database. */
export const IDENTITY_CLAIMS: readonly IdentityClaim[] = ['principal', 'userId', 'organizationId', 'clientId'];

/** A compiled SELECT binding. */
export interface SqlStatementPlan {
  readonly sql: string;
  /** The input fields passed as `$1`, `$2`, ... */
  readonly params: readonly string[];
  /** Setting name → claim, in a fixed order. */
  readonly identity: readonly (readonly [string, IdentityClaim])[];
  readonly timeoutMs?: number;
}

// A custom setting needs a dotted name (`app.tenant`); the prefix keeps it clear of the server's own settings.
const SETTING_NAME = /^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$/;

/** The statement without comments and quoted text, for the checks below (never sent). */
function codeOf(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/"(?:[^"]|"")*"/g, '""');
}

/** The default settings: the principal, and the organization for an organization's operation. */
export function defaultIdentitySettings(organizationScoped: boolean): Record<string, IdentityClaim> {
  return organizationScoped
    ? { 'wildo.principal': 'principal', 'wildo.organization_id': 'organizationId' }
    : { 'wildo.principal': 'principal' };
}

/**
 * Checks what can be checked without the database: one SELECT (or WITH ... SELECT) statement, its `$n` parameters
 * matched by `params`, identity settings with dotted names and known claims. The database checks the rest at start
 * (see `checkSqlSafety`) and enforces READ ONLY on every call.
 */
export function compileSqlStatement(
  binding: SqlOperationBinding,
  organizationScoped: boolean,
  problems: BindingProblem[],
): SqlStatementPlan {
  const sql = typeof binding.sql === 'string' ? binding.sql.trim().replace(/;\s*$/, '') : '';
  const code = codeOf(sql);
  if (!/^\(*\s*(select|with)\b/i.test(code.trim()))
    problems.push({
      path: 'sql',
      message: 'a SQL binding runs one SELECT statement (or WITH ... SELECT); nothing else',
    });
  if (code.includes(';')) problems.push({ path: 'sql', message: 'write one statement (no ";" inside it)' });
  if (
    /\b(insert\s+into|update\s+\S+\s+set|delete\s+from|merge\s+into|for\s+(no\s+key\s+)?update|for\s+(key\s+)?share)\b/i.test(
      code,
    )
  )
    problems.push({ path: 'sql', message: 'the statement may only read: remove the writing or locking clause' });
  const params = (binding.params ?? []) as readonly string[];
  const highest = Math.max(0, ...[...code.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
  if (highest !== params.length)
    problems.push({
      path: 'params',
      message: `the statement uses ${highest} parameter(s) ($1..$${highest}); list that many input fields in params, in order`,
    });
  const settings = binding.identity ?? defaultIdentitySettings(organizationScoped);
  const identity = Object.entries(settings).sort(([a], [b]) => a.localeCompare(b));
  for (const [name, claim] of identity) {
    if (!SETTING_NAME.test(name))
      problems.push({ path: `identity.${name}`, message: 'name the setting with a dot, e.g. "app.tenant_id"' });
    if (!IDENTITY_CLAIMS.includes(claim))
      problems.push({ path: `identity.${name}`, message: `use one of the claims ${IDENTITY_CLAIMS.join(', ')}` });
  }
  if (identity.length === 0)
    problems.push({
      path: 'identity',
      message: "pass at least one claim of the caller's identity for the row-level-security policies",
    });
  const timeoutMs = binding.timeoutMs ?? binding.connector.timeoutMs;
  return { sql, params, identity, ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
}
