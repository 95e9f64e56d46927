import { z } from 'zod';
import { EngineCapability } from '../models/engine-capability.js';
import { APPLICATION_ENVIRONMENT } from './application-environment.js';
import {
  AgentClientProtocol_AuthMode,
  AgentClientProtocol_HostConfigurationInheritance,
  AgentClientProtocol_PermissionCeiling,
  AgentClientProtocol_RunnerHost,
  AgentClientProtocol_WorkingDirectoryPolicy,
  ExternalProvider_ExchangeProtocol_Kind,
} from './external-provider.models.js';

const providerName = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,62}$/, 'a provider name: lower-case letters, digits, "_" or "-", starting with a letter');
const profileRef = z
  .string()
  .regex(
    /^[a-z][a-z0-9._-]{0,126}$/,
    'a profile key: lower-case letters, digits, ".", "_" or "-", starting with a letter',
  );

/** Refuses an array that lists the same value twice, naming the value. */
function withoutDuplicates<T extends z.ZodType<string>>(item: T) {
  return z.array(item).superRefine((values, ctx) => {
    values.forEach((value, index) => {
      if (values.indexOf(value) !== index) {
        ctx.addIssue({ code: 'custom', path: [index], message: `"${value}" is listed twice; keep one` });
      }
    });
  });
}

/** The runtime scopes a provider can be declared in: the backend API, the companion host, the browser. */
export const PROVIDER_SCOPES = ['backend', 'companion', 'frontend'] as const;

/** One of {@link PROVIDER_SCOPES}. */
export type ProviderScopeName = (typeof PROVIDER_SCOPES)[number];

/** Which provider serves an engine capability in a scope, and which ones stand in when it is unavailable. */
export const ProviderSelectionSchema = z.strictObject({
  primary: providerName,
  whenUnavailable: withoutDuplicates(providerName).default([]),
});

/** One provider declared in a scope: what it is used for, in engine and provider vocabulary. */
export const ProviderDeclarationSchema = z.strictObject({
  engineCapabilities: withoutDuplicates(z.enum(EngineCapability)).default([]),
  providerCapabilities: withoutDuplicates(z.string().min(1)).default([]),
  protocols: withoutDuplicates(z.string().min(1)).default([]),
});

/** The providers of one runtime scope and the selection policy per engine capability. */
export const ProviderScopeSchema = z.strictObject({
  providers: z.record(providerName, ProviderDeclarationSchema).default({}),
  selection: z.partialRecord(z.enum(EngineCapability), ProviderSelectionSchema).default({}),
});

/** The value `defineSaaSProviders` returns: provider declarations per runtime scope. */
export const SaaSProvidersSchema = z.strictObject({
  scopes: z
    .strictObject({
      backend: ProviderScopeSchema.optional(),
      companion: ProviderScopeSchema.optional(),
      frontend: ProviderScopeSchema.optional(),
    })
    .prefault({}),
});

/**
 * One Agent Client Protocol execution profile: the authority and environment a coding-agent
 * subprocess runs under. Defaults: 30-minute turns, no automatic continuation, 30-minute input wait.
 */
export const AgentClientProtocolExecutionProfileSchema = z.strictObject({
  runnerHost: z.enum(AgentClientProtocol_RunnerHost),
  authMode: z.enum(AgentClientProtocol_AuthMode),
  allowedApplicationEnvironments: withoutDuplicates(z.enum(APPLICATION_ENVIRONMENT)).min(
    1,
    'name at least one environment; a profile allowed nowhere should be removed',
  ),
  workingDirectoryPolicy: z.enum(AgentClientProtocol_WorkingDirectoryPolicy),
  permissionCeiling: z.enum(AgentClientProtocol_PermissionCeiling),
  hostConfigurationInheritance: z.enum(AgentClientProtocol_HostConfigurationInheritance),
  turnTimeoutMs: z
    .int()
    .min(1_000)
    .max(24 * 3_600_000)
    .default(30 * 60_000),
  maxAutoContinuations: z.int().min(0).max(100).default(0),
  awaitingInputTtlMs: z
    .int()
    .min(1_000)
    .max(7 * 24 * 3_600_000)
    .default(30 * 60_000),
});

/** Agent Client Protocol settings of one provider: its named execution profiles and the default one. */
export const AgentClientProtocolConfigurationSchema = z.strictObject({
  defaultExecutionProfileRef: profileRef.optional(),
  executionProfiles: z.record(profileRef, AgentClientProtocolExecutionProfileSchema),
});

/** Per-provider, per-exchange-protocol settings. Only the Agent Client Protocol has settings today. */
export const ProviderConfigurationsSchema = z.record(
  providerName,
  z.strictObject({
    [ExternalProvider_ExchangeProtocol_Kind.AGENT_CLIENT_PROTOCOL]: AgentClientProtocolConfigurationSchema.optional(),
  }),
);

/** A provider selection as written. */
export type ProviderSelectionInput = z.input<typeof ProviderSelectionSchema>;
/** A provider selection with defaults applied. */
export type ProviderSelection = z.output<typeof ProviderSelectionSchema>;
/** A provider declaration with defaults applied. */
export type ProviderDeclaration = z.output<typeof ProviderDeclarationSchema>;
/** A runtime scope with defaults applied. */
export type ProviderScope = z.output<typeof ProviderScopeSchema>;
/** The providers section as written. */
export type SaaSProvidersInput = z.input<typeof SaaSProvidersSchema>;
/** The providers section with defaults applied. */
export type SaaSProviders = z.output<typeof SaaSProvidersSchema>;
/** An Agent Client Protocol execution profile with defaults applied. */
export type AgentClientProtocolExecutionProfile = z.output<typeof AgentClientProtocolExecutionProfileSchema>;
/** The `providerConfigurations` section with defaults applied. */
export type ProviderConfigurations = z.output<typeof ProviderConfigurationsSchema>;
