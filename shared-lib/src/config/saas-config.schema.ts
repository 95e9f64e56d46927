import { z } from 'zod';
import { EngineCapability } from '../models/engine-capability.js';
import { APPLICATION_ENVIRONMENT } from './application-environment.js';
import { AuthConfigSchema } from './auth.schema.js';
import { ProductCatalogSchema } from './products.schema.js';
import { ProviderConfigurationsSchema, SaaSProvidersSchema } from './providers.schema.js';
import { FrontendServicesSchema, ObservabilityConfigSchema, RuntimeSectionSchema } from './runtime.schema.js';
import { collectCrossFieldProblems } from './saas-config.rules.js';

/** `application`: the application's name and the environment this configuration describes. */
export const ApplicationSectionSchema = z.strictObject({
  name: z.string().min(1).max(100),
  environment: z.enum(APPLICATION_ENVIRONMENT).default(APPLICATION_ENVIRONMENT.DEVELOPMENT),
});

/** `engineCapabilities`: which engine features are switched on; a capability not listed is off. */
export const EngineCapabilitiesSchema = z.partialRecord(
  z.enum(EngineCapability),
  z.strictObject({ enabled: z.boolean() }),
);

/** The configuration's structure only; {@link SaaSConfigSchema} adds the rules that span sections. */
export const SaaSConfigStructureSchema = z.strictObject({
  application: ApplicationSectionSchema,
  engineCapabilities: EngineCapabilitiesSchema.default({}),
  providers: SaaSProvidersSchema.prefault({}),
  providerConfigurations: ProviderConfigurationsSchema.default({}),
  auth: AuthConfigSchema.prefault({}),
  runtime: RuntimeSectionSchema.prefault({}),
  frontendServices: FrontendServicesSchema.default({}),
  observability: ObservabilityConfigSchema.prefault({}),
  products: ProductCatalogSchema.default([]),
});

/**
 * The application configuration `wildo.saas.config.ts` exports, with every cross-section rule. The
 * rules run only once the structure is sound, so a report never mixes both kinds unpredictably.
 */
export const SaaSConfigSchema = SaaSConfigStructureSchema.superRefine(
  (config, ctx) => {
    for (const problem of collectCrossFieldProblems(config)) {
      ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
    }
  },
  { when: (payload) => payload.issues.length === 0 },
);

/** The configuration as an application writes it (defaults optional). */
export type SaaSConfigInput = z.input<typeof SaaSConfigStructureSchema>;
/** The configuration with every default applied: what the engine consumes. */
export type SaaSConfig = z.output<typeof SaaSConfigStructureSchema>;
/** The `engineCapabilities` section. */
export type EngineCapabilities = z.output<typeof EngineCapabilitiesSchema>;
