import { requestJson } from './api.client';
import { LoginResponseSchema, MeResponseSchema, type AuthUser } from './contracts';

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
