import { z } from 'zod';

/** The endpoint name of the backend API in `runtime.endPoints`; every other endpoint is a frontend service. */
export const MAIN_BACKEND_API_ENDPOINT = 'main_backend_api';

const serviceName = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,62}$/, 'a service name: lower-case letters, digits, "_" or "-", starting with a letter');

const ABSOLUTE_URL_HINT = 'must be an absolute http:// or https:// URL such as https://app.example.com';

/** Why a public URL is not acceptable, or `undefined`. Paths are allowed (a service behind a prefix). */
function publicUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return ABSOLUTE_URL_HINT;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return ABSOLUTE_URL_HINT;
  if (url.username || url.password) return 'remove the credentials from the URL';
  if (url.search || url.hash) return 'remove the query string and fragment; a public URL is a base address';
  return undefined;
}

/** A public base URL, validated and stored without a trailing slash so routes can be appended. */
export const PublicUrlSchema = z
  .string()
  .superRefine((value, ctx) => {
    const problem = publicUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((value) => value.replace(/\/+$/, ''));

/** One addressable service: where parties outside the deployment reach it. */
export const EndPointSchema = z.strictObject({ publicUrl: PublicUrlSchema });

/** `runtime`: the public addresses of the backend API (`main_backend_api`) and of each frontend service. */
export const RuntimeSectionSchema = z.strictObject({
  endPoints: z.record(serviceName, EndPointSchema).default({}),
});

/** One frontend application served for this SaaS (consent pages, upload drop pages, the host UI). */
export const FrontendServiceSchema = z.strictObject({
  displayName: z.string().min(1).max(200).optional(),
  /** The service links point to when several exist; a single service is the default without saying so. */
  isDefault: z.boolean().default(false),
});

/** Named frontend services; at most one may be marked `isDefault`. */
export const FrontendServicesSchema = z.record(serviceName, FrontendServiceSchema).superRefine((services, ctx) => {
  const defaults = Object.keys(services).filter((name) => services[name]?.isDefault);
  for (const name of defaults.slice(1)) {
    ctx.addIssue({
      code: 'custom',
      path: [name, 'isDefault'],
      message: `only one frontend service can be the default and "${defaults[0]}" already is; remove isDefault here`,
    });
  }
});

/** LLM call telemetry policy: content capture off and no deliberate sampling drop unless said otherwise. */
export const LlmObservabilityConfigSchema = z.strictObject({
  captureContent: z.boolean().default(false),
  sampleRate: z.number().min(0).max(1).default(1),
});

/** The `observability` section. */
export const ObservabilityConfigSchema = z.strictObject({
  llmObservability: LlmObservabilityConfigSchema.prefault({}),
});

/** The `runtime` section with defaults applied. */
export type RuntimeSection = z.output<typeof RuntimeSectionSchema>;
/** One frontend service with defaults applied. */
export type FrontendService = z.output<typeof FrontendServiceSchema>;
/** LLM observability policy with defaults applied. */
export type LlmObservabilityConfig = z.output<typeof LlmObservabilityConfigSchema>;
/** The `observability` section with defaults applied. */
export type ObservabilityConfig = z.output<typeof ObservabilityConfigSchema>;
