import * as z from 'zod/mini';
import { ApiError, requestJson } from './api.client';

/**
 * `POST /api/v1/auth/reauth`: a one-use step-up proof for a sensitive operation. A wrong password is reported
 * as a field problem (status 400), not as an expired session: the person stays signed in.
 */
export async function stepUp(password: string, accessToken: string): Promise<string> {
  try {
    const body = await requestJson('/api/v1/auth/reauth', {
      method: 'POST',
      body: { method: 'PASSWORD', password },
      accessToken,
      schema: z.object({ data: z.object({ reAuthToken: z.string() }) }),
    });
    return body.data.reAuthToken;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401 && error.details.reason === 'credential_invalid')
      throw new ApiError(error.message, 400, 'VALIDATION_FAILED', {
        problems: [{ path: 'password', expected: 'your current password' }],
      });
    throw error;
  }
}
