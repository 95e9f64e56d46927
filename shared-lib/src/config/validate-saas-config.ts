import type { z } from 'zod';
import { formatConfigPath, type ConfigProblem } from './config-problem.js';
import { SaaSConfigSchema, type SaaSConfig } from './saas-config.schema.js';

/** The outcome of {@link validateSaaSConfig}: the resolved configuration, or every problem found. */
export type SaaSConfigValidation = { ok: true; config: SaaSConfig } | { ok: false; problems: ConfigProblem[] };

/** Turns one Zod issue into reportable problems; an unknown key becomes a problem at that key's own path. */
function toProblems(issue: z.core.$ZodIssue): ConfigProblem[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({
      path: formatConfigPath([...issue.path, key]),
      message: 'unknown key; remove it or check its spelling',
    }));
  }
  if (issue.code === 'invalid_key') {
    return [
      { path: formatConfigPath(issue.path), message: `invalid key: ${issue.issues[0]?.message ?? issue.message}` },
    ];
  }
  return [{ path: formatConfigPath(issue.path), message: issue.message }];
}

/**
 * Validates a configuration value (structure, then every cross-section rule) and applies defaults.
 *
 * @example
 * const result = validateSaaSConfig(loaded);
 * if (!result.ok) for (const p of result.problems) console.error(`${p.path}: ${p.message}`);
 */
export function validateSaaSConfig(input: unknown): SaaSConfigValidation {
  const parsed = SaaSConfigSchema.safeParse(input);
  if (parsed.success) return { ok: true, config: parsed.data };
  return { ok: false, problems: parsed.error.issues.flatMap(toProblems) };
}
