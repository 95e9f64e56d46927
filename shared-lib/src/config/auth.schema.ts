import { z } from 'zod';

/** Whether, and for which clients, the authorization server resolves OAuth client metadata documents. */
export enum CimdTrustPolicy {
  /** No client metadata document is fetched; the default. */
  DISABLED = 'DISABLED',
  /** Only documents whose URL (or bare host) appears in `allowedClients`. */
  ALLOWLIST = 'ALLOWLIST',
  /** Any HTTPS document URL that passes the outbound-target guard. */
  OPEN = 'OPEN',
}

/** Dynamic client registration (`/oauth/register`): off unless enabled, ten registrations per source IP per hour. */
export const DynamicClientRegistrationConfigSchema = z.strictObject({
  enabled: z.boolean().default(false),
  maxRegistrationsPerHourPerIp: z.int().min(1).max(10_000).default(10),
});

const bareHost = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** Why an allowlist entry is not acceptable, or `undefined` when it is an exact https URL or a bare host. */
function allowlistEntryProblem(entry: string): string | undefined {
  if (!entry.includes('/')) {
    return bareHost.test(entry) ? undefined : 'a bare host must be a lower-case DNS name such as tool.example';
  }
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return 'must be an exact https URL (https://tool.example/client.json) or a bare host (tool.example)';
  }
  if (url.protocol !== 'https:') return 'a client metadata document URL must use https';
  if (url.username || url.password) return 'remove the credentials from the URL';
  if (url.hash) return 'remove the "#fragment" from the URL';
  if (url.pathname === '/') return 'name the document itself (https://host/path/client.json), not the site root';
  return undefined;
}

const allowlistEntry = z.string().superRefine((entry, ctx) => {
  const problem = allowlistEntryProblem(entry);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * Client ID Metadata Document trust. ALLOWLIST needs at least one entry; OPEN refuses entries
 * because a list that is not enforced would read as a restriction.
 */
export const CimdConfigSchema = z
  .strictObject({
    policy: z.enum(CimdTrustPolicy).default(CimdTrustPolicy.DISABLED),
    allowedClients: z.array(allowlistEntry).default([]),
  })
  .superRefine((cimd, ctx) => {
    if (cimd.policy === CimdTrustPolicy.ALLOWLIST && cimd.allowedClients.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['allowedClients'],
        message: 'policy ALLOWLIST needs at least one client URL or host; add one or choose DISABLED',
      });
    }
    if (cimd.policy === CimdTrustPolicy.OPEN && cimd.allowedClients.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['allowedClients'],
        message: 'policy OPEN ignores allowedClients; remove the list or choose ALLOWLIST',
      });
    }
  });

/** The `auth` section: DCR, CIMD, remembered-consent lifetime (180 days) and access-token lifetime (15 minutes). */
export const AuthConfigSchema = z.strictObject({
  dynamicClientRegistration: DynamicClientRegistrationConfigSchema.prefault({}),
  cimd: CimdConfigSchema.prefault({}),
  consentGrantLifetimeDays: z.int().min(1).max(3650).default(180),
  accessTokenLifetimeMinutes: z.int().min(1).max(1440).default(15),
});

/** Dynamic client registration settings with defaults applied. */
export type DynamicClientRegistrationConfig = z.output<typeof DynamicClientRegistrationConfigSchema>;
/** CIMD settings with defaults applied. */
export type CimdConfig = z.output<typeof CimdConfigSchema>;
/** The `auth` section with defaults applied. */
export type AuthConfig = z.output<typeof AuthConfigSchema>;
