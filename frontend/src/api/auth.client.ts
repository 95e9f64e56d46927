import { requestJson } from './api.client';
import {
  CheckEmailResponseSchema,
  LoginResponseSchema,
  MeResponseSchema,
  VerifyEmailResponseSchema,
  type AuthUser,
} from './contracts';

/** What a successful sign-in returns under `data`. */
export interface LoginResult {
  user: AuthUser;
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
}

/** `POST /api/v1/auth/login`; rejects with `ApiError` (401 `credential_invalid`, 429 when throttled, ...). */
export async function login(
  credentials: { email: string; password: string },
  signal?: AbortSignal,
): Promise<LoginResult> {
  const body = await requestJson('/api/v1/auth/login', {
    method: 'POST',
    body: credentials,
    signal,
    schema: LoginResponseSchema,
  });
  return body.data;
}

/** `GET /api/v1/auth/me`: the person the access token belongs to. */
export async function fetchCurrentUser(accessToken: string, signal?: AbortSignal): Promise<AuthUser> {
  const body = await requestJson('/api/v1/auth/me', { accessToken, signal, schema: MeResponseSchema });
  return body.data.user;
}

/**
 * `POST /api/v1/auth/signup`: asks for a sign-up link to be mailed to the address. It answers the same whether or not
 * the address has an account (the mail says which); resolves with how many hours the link works.
 */
export async function requestSignup(request: {
  email: string;
  password: string;
  displayName?: string;
}): Promise<number> {
  const body = await requestJson('/api/v1/auth/signup', {
    method: 'POST',
    body: request,
    schema: CheckEmailResponseSchema,
  });
  return body.data.linkLifetimeHours;
}

/** `POST /api/v1/auth/email-verification`: mails the signed-in person's own address a link that confirms it. */
export async function requestAddressConfirmation(accessToken: string): Promise<number> {
  const body = await requestJson('/api/v1/auth/email-verification', {
    method: 'POST',
    accessToken,
    schema: CheckEmailResponseSchema,
  });
  return body.data.linkLifetimeHours;
}

/** What opening a mailed link did: a new account with its first token, or an account's address confirmed. */
export type OpenedLink = { kind: 'signed-up'; accessToken: string } | { kind: 'confirmed'; user: AuthUser };

/** `POST /api/v1/auth/verify-email` with the token of a mailed link (it works once). */
export async function openMailedLink(token: string): Promise<OpenedLink> {
  const body = await requestJson('/api/v1/auth/verify-email', {
    method: 'POST',
    body: { token },
    schema: VerifyEmailResponseSchema,
  });
  return body.data.accessToken
    ? { kind: 'signed-up', accessToken: body.data.accessToken }
    : { kind: 'confirmed', user: body.data.user };
}

/** Whether this server keeps its mail in a development outbox (so a page can point there). */
export async function hasDevelopmentOutbox(): Promise<boolean> {
  try {
    return (await fetch('/api/v1/dev/outbox?limit=1')).ok;
  } catch {
    return false;
  }
}
