import { z } from 'zod';

/**
 * Who a policy entry matches, always read from the caller's verified identity (the credential the engine checked,
 * the roles it resolved for the addressed scope), never from anything the caller asserts in a request.
 *
 * - `{ kind: 'person' }`: a signed-in person, whatever credential carried them; `userId` narrows it to one person.
 * - `{ kind: 'machine' }`: an API key or an OAuth client acting as itself; `clientId` narrows it to one key or client.
 * - `{ kind: 'delegated' }`: a person acting through an OAuth client's delegated token (an MCP or A2A client
 *   application); `clientId` narrows it to the tokens issued to one client.
 * - `{ kind: 'role', role }`: a caller holding `role` in the addressed scope, including through a higher role
 *   (`ORG_ADMIN` holds `ORG_MEMBER`).
 *
 * @example
 * const policies = { allow: [{ kind: 'role', role: CORE_ORG_ROLES.ORG_MANAGER }], deny: [{ kind: 'machine' }] };
 */
export type PrincipalMatcher<TRole extends string = string> =
  | { readonly kind: 'person'; readonly userId?: string }
  | { readonly kind: 'machine'; readonly clientId?: string }
  | { readonly kind: 'delegated'; readonly clientId?: string }
  | { readonly kind: 'role'; readonly role: TRole };

/** The kinds of {@link PrincipalMatcher}, in the order the documentation lists them. */
export const PRINCIPAL_MATCHER_KINDS = ['person', 'machine', 'delegated', 'role'] as const;

/** A per-principal rate limit: `points` calls per `durationSeconds`, counted for each caller across every surface. */
export interface ResourceOperationPolicyRateLimit {
  points: number;
  durationSeconds: number;
}

/**
 * The policies of one operation variant, checked on every call through the one dispatch path (REST, MCP, A2A, agent
 * tools), before the input is read and before any side effect or backend call.
 *
 * - `authenticated: true` states the engine's rule that every call carries a verified credential (refused as
 *   `no_credential` otherwise); it cannot be turned off.
 * - `allow`: when present, only callers matching at least one entry pass (`principal_not_allowed` otherwise).
 * - `deny`: callers matching any entry are refused (`principal_denied`), even when an `allow` entry matches too.
 * - `rateLimit`: calls per caller (one person, or one API key or client) across every surface, held on the
 *   coordination store so it holds across replicas (`rate_limit_exceeded`).
 */
export interface ResourceOperationPolicies<TRole extends string = string> {
  authenticated?: true;
  allow?: readonly PrincipalMatcher<TRole>[];
  deny?: readonly PrincipalMatcher<TRole>[];
  rateLimit?: ResourceOperationPolicyRateLimit;
}

/**
 * The failures an operation declares: code → what it means, written for the caller. A handler (or a connector's
 * backend answer) raises one by its code; the caller receives the code and this description, never a backend's
 * own text. Codes are letters, digits, `-`, `_` and `.` (`quote-expired`, `QUOTE_EXPIRED`).
 */
export type ResourceOperationFailures = Readonly<Record<string, string>>;

const id = z.string().min(1).max(128);
const roleName = z.string().regex(/^[A-Z][A-Z0-9_]{1,62}$/, 'an upper-case role name such as ORG_MEMBER');

/** Validates one {@link PrincipalMatcher}. */
export const PrincipalMatcherSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('person'), userId: id.optional() }),
    z.strictObject({ kind: z.literal('machine'), clientId: id.optional() }),
    z.strictObject({ kind: z.literal('delegated'), clientId: id.optional() }),
    z.strictObject({ kind: z.literal('role'), role: roleName }),
  ],
  { error: `a principal matcher: { kind: ${PRINCIPAL_MATCHER_KINDS.map((k) => `'${k}'`).join(' | ')}, ... }` },
);

/** Validates {@link ResourceOperationPolicies}. */
export const ResourceOperationPoliciesSchema = z.strictObject({
  authenticated: z
    .literal(true, {
      error: 'every operation requires a verified caller; write authenticated: true or leave it out',
    })
    .optional(),
  allow: z
    .array(PrincipalMatcherSchema)
    .min(1, 'an empty allow list admits nobody; remove the operation instead')
    .optional(),
  deny: z.array(PrincipalMatcherSchema).min(1, 'an empty deny list denies nobody; remove it').optional(),
  rateLimit: z
    .strictObject({
      points: z.number().int().min(1).max(1_000_000),
      durationSeconds: z.number().int().min(1).max(86_400),
    })
    .optional(),
});

/** The form of a declared failure code. */
export const FAILURE_CODE_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/** Validates {@link ResourceOperationFailures}. */
export const ResourceOperationFailuresSchema = z
  .record(z.string(), z.string().trim().min(1, 'describe the failure for the caller').max(500))
  .superRefine((failures, ctx) => {
    for (const code of Object.keys(failures)) {
      if (!FAILURE_CODE_PATTERN.test(code))
        ctx.addIssue({
          code: 'custom',
          path: [code],
          message: 'a failure code of letters, digits, "-", "_" or "." such as quote-expired',
        });
    }
  });
