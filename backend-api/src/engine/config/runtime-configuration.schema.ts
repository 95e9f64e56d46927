import {
  ApplicationSectionSchema,
  AuthConfigSchema,
  EngineCapability,
  FrontendServicesSchema,
  ObservabilityConfigSchema,
  ProductCatalogSchema,
  ProviderConfigurationsSchema,
  ProviderDeclarationSchema,
  ProviderSelectionSchema,
  RuntimeSectionSchema,
} from '@wildo/shared-lib';
import { z } from 'zod';
import { GENERATION_FORMAT_VERSION } from './config.constants.js';

/** A provider named with the environment variable its credential must be in (the value is never generated). */
export const RuntimeProviderRefSchema = z.strictObject({
  provider: z.string().min(1),
  credentialEnvVar: z.string().min(1),
});

/** A declared provider as the runtime sees it: the declaration plus its credential variable. */
export const RuntimeProviderSchema = ProviderDeclarationSchema.extend({ credentialEnvVar: z.string().min(1) });

/** A selection plus `candidates`: primary first, then the stand-ins, each with its credential variable. */
export const RuntimeSelectionSchema = ProviderSelectionSchema.extend({
  candidates: z.array(RuntimeProviderRefSchema).min(1),
});

/** One runtime scope in `runtime.json`. */
export const RuntimeScopeSchema = z.strictObject({
  providers: z.record(z.string(), RuntimeProviderSchema),
  selection: z.partialRecord(z.enum(EngineCapability), RuntimeSelectionSchema),
});

/**
 * The contents of `.wildo-saas/generated/runtime.json`: the resolved configuration (every default
 * applied, every scope and capability spelled out) and the hash of the inputs it was rendered from.
 */
export const RuntimeConfigurationSchema = z.strictObject({
  formatVersion: z.literal(GENERATION_FORMAT_VERSION),
  inputsHash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  application: ApplicationSectionSchema,
  engineCapabilities: z.record(z.enum(EngineCapability), z.strictObject({ enabled: z.boolean() })),
  providers: z.strictObject({
    scopes: z.strictObject({
      backend: RuntimeScopeSchema,
      companion: RuntimeScopeSchema,
      frontend: RuntimeScopeSchema,
    }),
  }),
  providerConfigurations: ProviderConfigurationsSchema,
  auth: AuthConfigSchema,
  runtime: RuntimeSectionSchema,
  frontendServices: FrontendServicesSchema,
  /** The frontend service links point to: the one marked `isDefault`, else the only one, else `null`. */
  defaultFrontendService: z.string().nullable(),
  observability: ObservabilityConfigSchema,
  products: ProductCatalogSchema,
});

/** The typed contents of `runtime.json`. */
export type RuntimeConfiguration = z.output<typeof RuntimeConfigurationSchema>;
/** One runtime scope of {@link RuntimeConfiguration}. */
export type RuntimeScope = z.output<typeof RuntimeScopeSchema>;
/** A provider with its credential variable. */
export type RuntimeProviderRef = z.output<typeof RuntimeProviderRefSchema>;
