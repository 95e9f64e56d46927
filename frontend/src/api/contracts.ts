import type { OAuthAuthorizeResponse, OAuthConsentGrant, ReceivedInvitation } from '@wildo/shared-lib';
import * as z from 'zod/mini';

// Validators for what the backend answers. The contracts live in @wildo/shared-lib; its package root
// also carries the whole config and resource schemas (several hundred kB), so the browser bundle
// re-states the few it needs with zod/mini and the type annotations below keep the two in step.

/** Checks an untrusted response body; any zod schema fits. */
export interface ResponseValidator<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

const nonEmpty = () => z.string().check(z.minLength(1));

/** The signed-in person as `/auth/login` and `/auth/me` describe them. */
export const AuthUserSchema = z.object({
  _id: z.string(),
  email: z.string(),
  displayName: z.nullish(z.string()),
  /** Whether the account proved its address (absent from older backends: treated as proven). */
  emailVerified: z.optional(z.boolean()),
});
/** The signed-in person (`_id`, `email`, `displayName`). */
export type AuthUser = z.infer<typeof AuthUserSchema>;

/** `POST /api/v1/auth/login` success body. */
export const LoginResponseSchema = z.object({
  data: z.object({
    user: AuthUserSchema,
    accessToken: nonEmpty(),
    tokenType: z.literal('Bearer'),
    expiresIn: z.number(),
  }),
});

/** `GET /api/v1/auth/me` success body (organizations are not used here). */
export const MeResponseSchema = z.object({ data: z.object({ user: AuthUserSchema }) });

const AuthorizeAnswerSchema: z.ZodMiniType<OAuthAuthorizeResponse> = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('consent'),
    consent_token: z.string(),
    client: z.object({ client_id: z.string(), client_name: z.string(), client_uri: z.optional(z.string()) }),
    resource: z.string(),
    scopes: z.array(z.string()),
    expires_in: z.number().check(z.int()),
  }),
  z.object({ kind: z.literal('redirect'), redirect_to: z.string() }),
]);

/** `POST /api/v1/oauth/authorize` success body. */
export const AuthorizeResponseSchema = z.object({ data: AuthorizeAnswerSchema });

/** `POST /api/v1/oauth/authorize/decision` success body. */
export const DecisionResponseSchema = z.object({ data: z.object({ redirect_to: z.string() }) });

/** A remembered consent with the record id that withdrawing it needs. */
export type ConsentGrantRecord = OAuthConsentGrant & { _id: string };

const ConsentGrantRecordSchema: z.ZodMiniType<ConsentGrantRecord> = z.object({
  _id: nonEmpty(),
  clientId: nonEmpty(),
  clientName: z.string(),
  resource: nonEmpty(),
  scopes: z.array(z.string()),
  expiresAt: z.iso.datetime({ offset: true }),
});

/** `GET /api/v1/oauth-consent-grants` success body. */
export const ConsentGrantListSchema = z.object({
  data: z.array(ConsentGrantRecordSchema),
  nextCursor: z.nullish(z.string()),
});

const ReceivedInvitationSchema: z.ZodMiniType<ReceivedInvitation> = z.object({
  _id: nonEmpty(),
  organizationId: nonEmpty(),
  organizationName: z.string(),
  role: z.string(),
  invitedBy: z.nullable(z.string()),
  createdAt: z.iso.datetime({ offset: true }),
  expiresAt: z.iso.datetime({ offset: true }),
});

/** `GET /api/v1/invitations` success body: the signed-in person's open invitations. */
export const ReceivedInvitationListSchema = z.object({ data: z.array(ReceivedInvitationSchema) });

/** `POST /api/v1/invitations/:id/accept` success body: the organization joined and a fresh access token. */
export const AcceptInvitationResponseSchema = z.object({
  data: z.object({
    organization: z.object({ _id: nonEmpty(), name: z.string(), role: z.string() }),
    accessToken: nonEmpty(),
    tokenType: z.literal('Bearer'),
    expiresIn: z.number(),
  }),
});

/** `POST /api/v1/auth/signup` and `POST /api/v1/auth/email-verification`: a link is on its way (every address). */
export const CheckEmailResponseSchema = z.object({
  data: z.object({ status: z.literal('check_email'), linkLifetimeHours: z.number() }),
});

/** `POST /api/v1/auth/verify-email`: the new account signed in (201), or an existing account's address proven (200). */
export const VerifyEmailResponseSchema = z.object({
  data: z.object({ user: AuthUserSchema, accessToken: z.optional(z.string()) }),
});

/** Any JSON body (for calls whose answer the page does not read). */
export const AnyBodySchema = z.unknown();
