import { z } from 'zod';

/** A variable whose absence (or an empty or blank value) means "not set". */
const optionalText = z.string().trim().min(1).optional().catch(undefined);

/**
 * Every environment variable the backend, its providers and its operator commands read: one place, each with its
 * default and a one-line description (`describe`). Secrets come only from here, never from the generated
 * configuration. `environment.schema.test.ts` checks that no code in `backend-api/src` reads a variable this
 * schema does not declare; the backend hands the parsed object, not `process.env`, to the engine.
 */
export const BackendEnvironmentSchema = z.object({
  PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65_535)
    .default(4241)
    .describe('Port to listen on; 0 picks a free one. Default 4241.'),
  HOST: z
    .string()
    .min(1)
    .default('127.0.0.1')
    .describe('Interface to listen on; set 0.0.0.0 inside containers. Default 127.0.0.1.'),
  WILDO_PUBLIC_URL: z
    .preprocess((value) => (value === '' ? undefined : value), z.url({ protocol: /^https?$/ }).optional())
    .describe(
      'The URL clients reach the backend at (token issuer, audiences, discovery); default the configured URL, following PORT in development.',
    ),
  DATABASE_URL: optionalText.describe('PostgreSQL URL; default the embedded PGlite under the data directory.'),
  REDIS_URL: optionalText.describe(
    'Redis URL for rate limits, pub/sub and leases across replicas; default in-process.',
  ),
  WILDO_FILE_STORAGE: z
    .preprocess(
      (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
      z.enum(['local', 'database']).optional(),
    )
    .describe(
      'Where uploaded files live: `local` (the data directory, one replica) or `database` (the application database, shared by replicas); default local.',
    ),
  WILDO_SHUTDOWN_DRAIN_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(600_000)
    .default(10_000)
    .describe(
      'On SIGTERM, how long in-flight requests and streams get to finish before streams end with a shutdown event; default 10000.',
    ),
  WILDO_DATA_DIR: optionalText.describe(
    'Where embedded data lives (PGlite, the development secret); default .wildo-saas/data under the project root.',
  ),
  WILDO_PRIMARY_SECRET: optionalText.describe(
    'The primary secret every signing key derives from (32+ characters); required in production, else a development secret.',
  ),
  WILDO_FRONTEND_DIST: optionalText.describe(
    'The built frontend to serve; default frontend/dist under the project root, when it exists.',
  ),
  WILDO_TRUST_PROXY: optionalText.describe(
    'Express `trust proxy`: true, a hop count, or a list of addresses; default false (the socket address is the client).',
  ),
  WILDO_SMTP_URL: optionalText.describe(
    'SMTP server for sign-up, verification and invitation mails (smtp://user:password@host:587, smtps://...:465); default none: mails stay in the outbox, shown at /dev/outbox in development.',
  ),
  WILDO_MAIL_FROM: optionalText.describe(
    'Sender of those mails ("Name <address>"); default Wildo <no-reply@localhost>.',
  ),
  NODE_ENV: optionalText.describe(
    '`production` runs in production mode even if the configuration says DEVELOPMENT; default unset.',
  ),
  LOG_LEVEL: z
    .enum(['debug', 'info', 'warn', 'error', 'silent'])
    .default('info')
    .describe('Log level: debug, info, warn, error or silent. Default info.'),
  ANTHROPIC_API_KEY: optionalText.describe(
    'Credential of the "anthropic" provider; without it, agents on it refuse with 503 (named in a start-up warning).',
  ),
  ANTHROPIC_BASE_URL: optionalText.describe(
    "Base URL of the Anthropic API (a proxy or a local stub); default the vendor's API.",
  ),
  OPENAI_API_KEY: optionalText.describe(
    'Credential of the "openai" provider (chat, embeddings, images); without it, agents on it refuse with 503.',
  ),
  OPENAI_BASE_URL: optionalText.describe(
    "Base URL of the OpenAI API (a proxy or a local stub); default the vendor's API.",
  ),
  POSTHOG_PROJECT_API_KEY: optionalText.describe(
    'PostHog project key: with the LLM_OBSERVABILITY capability enabled, model calls are traced to PostHog too; without it, to the log only.',
  ),
  POSTHOG_HOST: optionalText.describe("PostHog endpoint (EU cloud, self-hosted, a proxy); default posthog-node's own."),
  WILDO_OTLP_ENABLED: optionalText.describe(
    '`true` exports traces and metrics over OTLP/HTTP (protobuf), to OTEL_EXPORTER_OTLP_ENDPOINT or http://localhost:4318; default off unless an OTLP endpoint is set.',
  ),
  OTEL_SDK_DISABLED: optionalText.describe(
    '`true` turns OpenTelemetry export off whatever else is set; default unset.',
  ),
  OTEL_SERVICE_NAME: optionalText.describe('The service name on exported traces and metrics; default wildo-backend.'),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalText.describe(
    'OTLP/HTTP base URL (traces to /v1/traces, metrics to /v1/metrics); setting it turns export on; default unset (off).',
  ),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalText.describe(
    'Full OTLP/HTTP URL for traces; default the base URL + /v1/traces.',
  ),
  OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: optionalText.describe(
    'Full OTLP/HTTP URL for metrics; default the base URL + /v1/metrics.',
  ),
  OTEL_EXPORTER_OTLP_HEADERS: optionalText.describe(
    'Headers sent with every export (`key=value,key2=value2`); default none.',
  ),
  OTEL_METRIC_EXPORT_INTERVAL: optionalText.describe('Milliseconds between metric exports; default 60000.'),
  WILDO_LLM_OBS_SAMPLE_RATE: optionalText.describe(
    'Share of model calls traced, 0 to 1 (written to runtime.env by `wildo config sync`); default the configured sample rate.',
  ),
  WILDO_LLM_OBS_CAPTURE_CONTENT: optionalText.describe(
    '`true` records prompts and completions in traces; default the configured captureContent (off).',
  ),
  NO_COLOR: optionalText.describe(
    'Set (to anything) to keep the wildo commands from colouring their output; without it, a terminal gets colours.',
  ),
  TERM: optionalText.describe(
    'The terminal type; `dumb` keeps the wildo commands plain; without it, a terminal gets colours.',
  ),
  // A URL with its scheme checked here: the connector takes its whole base URL from it (`wildo doctor` looks).
  TRAVEL_AGENCY_API_URL: z
    .preprocess((value) => (value === '' ? undefined : value), z.url({ protocol: /^https?$/ }).optional())
    .describe(
      "The travel desk's agency API (the reference connector example); without it, its stays operations answer 503.",
    ),
  TRAVEL_AGENCY_API_KEY: optionalText.describe(
    "The travel desk's own agency key, sent with payments; without it, payments answer 503.",
  ),
  TRAVEL_AGENCY_REPORTING_DSN: optionalText.describe(
    "The agency's reporting database (a role row-level security filters); without it, its reports answer 503.",
  ),
});
export type BackendEnvironment = z.infer<typeof BackendEnvironmentSchema>;

/** The environment's problems, one `VARIABLE: message` line each (never the value). */
export class InvalidEnvironmentError extends Error {
  override readonly name = 'InvalidEnvironmentError';
}

/** Parses the process environment; throws {@link InvalidEnvironmentError} naming each invalid variable. */
export function parseBackendEnvironment(env: Readonly<Record<string, string | undefined>>): BackendEnvironment {
  const parsed = BackendEnvironmentSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  throw new InvalidEnvironmentError(`The environment is invalid:\n${lines.join('\n')}`);
}

/**
 * The text-valued variables of a parsed environment, as the engine reads them (provider credentials and base
 * URLs, observability settings): only declared variables reach it.
 */
export function engineEnvironment(env: BackendEnvironment): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** `true`/`false`/a number/the text as given. */
export function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}
