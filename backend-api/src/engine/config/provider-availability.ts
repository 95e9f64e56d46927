import type { EngineCapability, ProviderScopeName } from '@wildo/shared-lib';
import type { RuntimeConfiguration, RuntimeProviderRef } from './runtime-configuration.schema.js';

/** Which provider serves a capability right now, or why none does (the engine reports absence, it does not fail). */
export type ProviderAvailability =
  | { available: true; provider: string; credentialEnvVar: string; isPrimary: boolean }
  | { available: false; reason: 'capability_disabled' | 'not_selected' }
  | { available: false; reason: 'missing_credentials'; missingCredentialEnvVars: string[] };

/**
 * Picks the first selected provider of a scope whose credential variable is set (non-empty) in `env`.
 * Only variable names are read back into results, never values.
 *
 * @example
 * resolveProviderAvailability(runtime, 'backend', EngineCapability.AI_LLM, process.env);
 */
export function resolveProviderAvailability(
  runtime: RuntimeConfiguration,
  scope: ProviderScopeName,
  capability: EngineCapability,
  env: Readonly<Record<string, string | undefined>>,
): ProviderAvailability {
  if (!runtime.engineCapabilities[capability]?.enabled) return { available: false, reason: 'capability_disabled' };
  const selection = runtime.providers.scopes[scope].selection[capability];
  if (!selection) return { available: false, reason: 'not_selected' };
  const hasCredential = (candidate: RuntimeProviderRef) => (env[candidate.credentialEnvVar] ?? '') !== '';
  const chosen = selection.candidates.find(hasCredential);
  if (!chosen) {
    return {
      available: false,
      reason: 'missing_credentials',
      missingCredentialEnvVars: [...new Set(selection.candidates.map((c) => c.credentialEnvVar))],
    };
  }
  return { ...chosen, available: true, isPrimary: chosen.provider === selection.primary };
}
