import { z } from 'zod';
import { CORE_APP_ROLES, CORE_ORG_ROLES } from '../models/roles.js';

const name = z.string().trim().min(1).max(100);
const timestamp = z.iso.datetime({ offset: true });
const orgRole = z.enum([CORE_ORG_ROLES.ORG_ADMIN, CORE_ORG_ROLES.ORG_MANAGER, CORE_ORG_ROLES.ORG_MEMBER]);
const appRole = z.enum([CORE_APP_ROLES.APP_ADMIN, CORE_APP_ROLES.APP_USER]);

/** Fields every API key has, whatever its scope; `roles` differ by scope. */
function apiKeySchema<TRole extends z.ZodType>(role: TRole) {
  return z.object({
    name,
    roles: z.array(role).min(1).max(3),
    /** After this instant the key is refused. */
    expiresAt: timestamp.nullable().optional(),
    /** The first characters of the key, to recognize it in a list (never enough to use it). */
    keyPrefix: z.string().max(32),
    /** HMAC of the key; stored, never returned. */
    hashedKey: z.string().max(128),
    /** Set by ROTATE: the key is refused after this instant. */
    invalidationDate: timestamp.nullable().optional(),
    /** Set by ROTATE: the key that replaced this one. */
    replacedByKeyId: z.string().max(64).nullable().optional(),
  });
}

/** An organization API key (`sk_org_...`), acting as an ORGANIZATION_MACHINE with its roles. */
export const OrganizationApiKeySchema = apiKeySchema(orgRole);
/** An application API key (`sk_app_...`), acting as an APPLICATION_MACHINE with its roles. */
export const ApplicationApiKeySchema = apiKeySchema(appRole);

/** Body of `ROTATE` (API keys and OAuth clients): when the old secret stops working (omitted = now). */
export const RotateCredentialRequestSchema = z.object({
  oldKeyInvalidationDate: timestamp.optional(),
});

/** `ROTATE` response extras beside the new key record. */
export const RotateApiKeyResponseFields = z.object({
  plainKey: z.string(),
  oldKeyId: z.string(),
  oldKeyInvalidationDate: z.string(),
});

/** `REGENERATE` response extras beside the new key record. */
export const RegenerateApiKeyResponseFields = z.object({
  plainKey: z.string(),
  previousKeyId: z.string(),
});

/** OAuth grants a registered client may be allowed. */
export const OAuthClientGrantType = z.enum(['client_credentials', 'authorization_code']);
/** How a client authenticates at the token endpoint. */
export const OAuthClientAuthMethod = z.enum(['client_secret_basic', 'client_secret_post', 'none']);

const redirectUri = z.string().min(1).max(2_048);

/** One secret of an OAuth client: stored as a hash; rotation gives the older ones a cutoff. */
export const OAuthClientSecretSchema = z.object({
  hash: z.string().max(128),
  createdAt: timestamp,
  invalidAfter: timestamp.nullable(),
});

function oauthClientSchema<TRole extends z.ZodType>(role: TRole) {
  return z.object({
    clientName: name,
    grantTypes: z.array(OAuthClientGrantType).min(1).max(2),
    /** Roles a client_credentials token carries (a snapshot at issuance). */
    roles: z.array(role).max(3).default([]),
    redirectUris: z.array(redirectUri).max(10).default([]),
    tokenEndpointAuthMethod: OAuthClientAuthMethod.default('client_secret_basic'),
    /** A trusted client skips the consent prompt, only for members of its own organization. */
    trusted: z.boolean().default(false),
    /** Identity scopes the client may request (a subset of openid, profile, email). */
    scope: z.string().max(64).default('openid profile email'),
    /** How the client came to exist; self-registered clients are never trusted. */
    origin: z.enum(['registered', 'dynamic_registration']).default('registered'),
    /** The first characters of the current secret, to recognize it (never enough to use it). */
    secretPrefix: z.string().max(32).nullable().optional(),
    secrets: z.array(OAuthClientSecretSchema).max(10).default([]),
    /** Hash of the RFC 7592 registration access token (self-registered clients). */
    registrationAccessTokenHash: z.string().max(128).nullable().optional(),
  });
}

/** An OAuth client owned by an organization. */
export const OrganizationOAuthClientSchema = oauthClientSchema(orgRole);
/** An OAuth client owned by the application (including self-registered clients). */
export const ApplicationOAuthClientSchema = oauthClientSchema(appRole);

/** `ROTATE` / `REGENERATE` response extras beside the client record. */
export const RotateOAuthClientResponseFields = z.object({
  plainSecret: z.string(),
  oldSecretInvalidationDate: z.string().nullable(),
});
