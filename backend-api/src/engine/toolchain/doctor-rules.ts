import type { z } from 'zod';
import type { CapabilitySnapshot, DeclarationSnapshot } from './declaration-snapshot.js';

// Declaration lints: what is valid (start-up accepts it) but unsafe or half-done. Each finding names its rule, the
// declaration it is about and the fix. Errors fail `wildo doctor`; warnings are shown and change no exit code.

/** How serious a finding is: an `error` makes `wildo doctor` exit 1. */
export type LintSeverity = 'error' | 'warning';

/** One lint finding. */
export interface LintFinding {
  rule: string;
  severity: LintSeverity;
  /** The capability (`hotels.cancel`). */
  capability: string;
  /** Where the declaration is: `module "travel-desk" > hotels.customOperations.cancel`. */
  path: string;
  message: string;
  fix: string;
}

/** What the lints read besides the declarations: the application's environment schema, when it has one. */
export interface LintContext {
  /** The environment schema (`BackendEnvironmentSchema`): a base URL variable it checks for a scheme passes. */
  environment?: z.ZodObject;
}

/** The rules, with what each looks for (for `wildo doctor --help` and the README). */
export const LINT_RULES: Readonly<Record<string, { severity: LintSeverity; looksFor: string }>> = {
  'irreversible-without-failures': {
    severity: 'error',
    looksFor: 'an irreversible capability that declares no failures',
  },
  'write-without-authentication': {
    severity: 'error',
    looksFor: 'a write on data every account shares that any signed-up account (APP_USER) may run, with no allow list',
  },
  'rate-limit-gap': {
    severity: 'warning',
    looksFor: 'a variant without the rate limit another variant of the same operation declares',
  },
  'env-base-url-scheme': {
    severity: 'warning',
    looksFor: 'a REST base URL from the environment whose scheme nothing checks',
  },
  'html-without-origins': {
    severity: 'error',
    looksFor: 'an HTML output field that is a plain string (no z_html origins): it would pass unchecked',
  },
  'approval-on-read': { severity: 'error', looksFor: 'an approval declared on a read' },
  'rls-organization-missing': {
    severity: 'error',
    looksFor: "an organization's SQL binding that does not pass the organization to row-level security",
  },
};

const WRITES = new Set(['write', 'destructive', 'irreversible']);

/** Every finding on a declaration set, errors first. */
export function lintDeclarations(snapshot: DeclarationSnapshot, context: LintContext = {}): LintFinding[] {
  const findings: LintFinding[] = [];
  for (const capability of snapshot.capabilities) {
    const at = (where: string) => `${capability.declaredIn} > ${capability.resource}.${where}`;
    const push = (rule: string, where: string, message: string, fix: string) =>
      findings.push({
        rule,
        severity: LINT_RULES[rule]?.severity ?? 'warning',
        capability: capability.id,
        path: at(where),
        message,
        fix,
      });
    const variantAt = `operationsConfiguration.${capability.operation}${variantSuffix(capability)}`;
    if (capability.effect === 'irreversible' && Object.keys(capability.failures).length === 0)
      push(
        'irreversible-without-failures',
        `customOperations.${capability.operation}`,
        'is irreversible and declares no failures: when it fails, a caller learns only that it failed, not why, and must not retry',
        "declare failures: { 'code': 'what it means for the caller' } for each outcome that stops it",
      );
    if (
      WRITES.has(capability.effect) &&
      capability.scope === 'APPLICATION' &&
      capability.roles.includes('APP_USER') &&
      capability.allow.length === 0
    )
      push(
        'write-without-authentication',
        variantAt,
        `is a ${capability.effect} on data every account shares, open to APP_USER: anyone who signs up may run it`,
        'name a narrower role (roles: [APP_ADMIN]) or add policies.allow naming who may call it',
      );
    if (capability.approval && capability.effect === 'read')
      push(
        'approval-on-read',
        `${variantAt}.approval`,
        'asks a person to approve a read: approvals are for what changes the world, and every read would wait',
        "remove approval, or declare the operation's real effect (write or irreversible)",
      );
    for (const field of capability.output) {
      const name =
        field.path
          .split(/[.[\]]/)
          .filter(Boolean)
          .at(-1) ?? '';
      if (!/html$/i.test(name) || !field.type.includes('string')) continue;
      if (capability.governed.some((g) => g.path === field.path && g.kind === 'html')) continue;
      push(
        'html-without-origins',
        `customOperations.${capability.operation}.responseSchema.${field.path}`,
        `outputs HTML at ${field.path} as a plain string: scripts and foreign images would pass unchecked`,
        'declare it with z_html({ origins: { images: [...], pages: [...] } })',
      );
    }
    lintBinding(capability, context, push);
  }
  lintRateLimitGaps(snapshot, findings);
  return findings.sort(
    (a, b) =>
      (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1) ||
      a.capability.localeCompare(b.capability) ||
      a.rule.localeCompare(b.rule),
  );
}

function variantSuffix(capability: CapabilitySnapshot): string {
  const hash = capability.id.indexOf('#');
  return hash < 0 ? '' : ` (variant ${capability.id.slice(hash + 1)})`;
}

function lintBinding(
  capability: CapabilitySnapshot,
  context: LintContext,
  push: (rule: string, where: string, message: string, fix: string) => void,
): void {
  const binding = capability.binding;
  if (!binding) return;
  const where = `binding.${capability.operation}`;
  // The engine passes the organization by default; a mapping of its own must name it again for an organization's rows.
  const claims = binding.identity === undefined ? undefined : Object.values(binding.identity);
  if (binding.kind === 'sql' && capability.scope === 'ORGANIZATIONS' && claims && !claims.includes('organizationId'))
    push(
      'rls-organization-missing',
      `${where}.identity`,
      `passes ${claims.join(', ')} but not the organization: row-level security on ${binding.connector} cannot keep one organization's rows from another`,
      "add 'wildo.organization_id': 'organizationId' to identity (or leave identity out for the defaults)",
    );
  if (binding.kind !== 'rest') return;
  const leading = /^\$\{([A-Z0-9_]+)\}/.exec(binding.target);
  const variable = leading?.[1];
  if (variable === undefined || schemeChecked(context.environment, variable)) return;
  push(
    'env-base-url-scheme',
    `${where}.connector.baseUrl`,
    `takes its whole base URL, scheme included, from ${variable}, and nothing checks that scheme`,
    `check ${variable} in the environment schema (z.url({ protocol: /^https?$/ })), or write the scheme in the base URL`,
  );
}

/** Whether the environment schema refuses a value for `variable` that is not an http(s) URL. */
function schemeChecked(environment: z.ZodObject | undefined, variable: string): boolean {
  const field = environment?.shape[variable] as z.ZodType | undefined;
  if (!field) return false;
  const accepts = (value: string) => {
    const parsed = field.safeParse(value);
    return parsed.success && parsed.data !== undefined;
  };
  return !accepts('ftp://agency.example') && !accepts('agency.example') && accepts('https://agency.example');
}

function lintRateLimitGaps(snapshot: DeclarationSnapshot, findings: LintFinding[]): void {
  const byOperation = new Map<string, CapabilitySnapshot[]>();
  for (const capability of snapshot.capabilities) {
    const key = `${capability.resource}.${capability.operation}`;
    byOperation.set(key, [...(byOperation.get(key) ?? []), capability]);
  }
  for (const variants of byOperation.values()) {
    const limited = variants.find((v) => v.rateLimit);
    if (!limited?.rateLimit) continue;
    for (const variant of variants.filter((v) => !v.rateLimit))
      findings.push({
        rule: 'rate-limit-gap',
        severity: 'warning',
        capability: variant.id,
        path: `${variant.declaredIn} > ${variant.resource}.operationsConfiguration.${variant.operation}${variantSuffix(variant)}.policies`,
        message: `declares no rate limit, while ${limited.id} limits the same operation to ${limited.rateLimit.points} per ${limited.rateLimit.durationSeconds}s: callers can go round the limit`,
        fix: `add policies.rateLimit to this variant too (${limited.rateLimit.points} per ${limited.rateLimit.durationSeconds}s)`,
      });
  }
}
