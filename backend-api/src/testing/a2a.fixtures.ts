import { randomUUID } from 'node:crypto';
import type supertest from 'supertest';
import { expect } from 'vitest';
import { collectText, parseSse, type SseEvent } from './agents.fixtures.js';
import type { TestUser } from './identity.fixtures.js';
import { delegateTo, registerPublicClient } from './oauth.fixtures.js';

/** The default A2A endpoint (path and audience of the backends tests build). */
export const A2A_PATH = '/api/v1/a2a';
export const A2A_AUDIENCE = 'http://localhost:4241/api/v1/a2a';
/** The reference application's `concierge` instance. */
export const A2A_CONCIERGE_PATH = '/api/v1/a2a/concierge';
export const A2A_CONCIERGE_AUDIENCE = 'http://localhost:4241/api/v1/a2a/concierge';

/** A 0.3 message (`kind` parts) with optional routing metadata. */
export function legacyMessage(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { kind: 'message', role: 'user', messageId: randomUUID(), parts: [{ kind: 'text', text }], ...extra };
}

/** A 1.0 message (`ROLE_USER`, bare text parts). */
export function v1Message(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { role: 'ROLE_USER', messageId: randomUUID(), parts: [{ text }], ...extra };
}

/** A JSON-RPC POST to an A2A endpoint; `A2A-Version: 1.0` is sent for 1.0 method names unless overridden. */
export function a2aPost(
  api: supertest.Agent,
  path: string,
  method: string,
  params: Record<string, unknown>,
  authorization?: string,
  headers: Record<string, string> = {},
): supertest.Test {
  const v1 = /^[A-Z]/.test(method);
  return api
    .post(path)
    .set({
      'Content-Type': 'application/json',
      ...(v1 ? { 'A2A-Version': '1.0' } : {}),
      ...(authorization ? { Authorization: authorization } : {}),
      ...headers,
    })
    .send({ jsonrpc: '2.0', id: 1, method, params });
}

/** A JSON-RPC call expected to succeed; returns its result. */
export async function a2aResult(
  api: supertest.Agent,
  path: string,
  method: string,
  params: Record<string, unknown>,
  authorization: string,
): Promise<any> {
  const res = await a2aPost(api, path, method, params, authorization);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.error, JSON.stringify(res.body)).toBeUndefined();
  return res.body.result;
}

/** A JSON-RPC call expected to fail; returns its error object. */
export async function a2aError(
  api: supertest.Agent,
  path: string,
  method: string,
  params: Record<string, unknown>,
  authorization: string,
): Promise<{ code: number; message: string; data?: any }> {
  const res = await a2aPost(api, path, method, params, authorization);
  expect(res.body.error, JSON.stringify(res.body)).toBeDefined();
  return res.body.error;
}

/** A streaming call read whole: its SSE frames' JSON-RPC `result`s (or the JSON error when it did not stream). */
export async function a2aStream(
  api: supertest.Agent,
  path: string,
  method: string,
  params: Record<string, unknown>,
  authorization: string,
): Promise<{ status: number; frames: any[]; body?: any }> {
  const res = await a2aPost(api, path, method, params, authorization, { Accept: 'text/event-stream' })
    .buffer(true)
    .parse((response, done) => collectText(response, done));
  const text = res.body as string;
  if (!String(res.headers['content-type'] ?? '').startsWith('text/event-stream'))
    return { status: res.status, frames: [], body: JSON.parse(text) };
  const events: SseEvent[] = parseSse(text);
  return { status: res.status, frames: events.map((event) => event.data.result ?? { error: event.data.error }) };
}

/** A person's delegated token for an A2A audience (default: the default agent). */
export async function a2aToken(api: supertest.Agent, person: TestUser, audience = A2A_AUDIENCE): Promise<string> {
  return delegateTo(api, person, await registerPublicClient(api), { resource: audience });
}

/** An organization machine client's `client_credentials` token for `audience`. */
export async function machineToken(
  api: supertest.Agent,
  admin: TestUser,
  organizationId: string,
  audience = A2A_AUDIENCE,
): Promise<string> {
  const created = await api
    .post(`/api/v1/organizations/${organizationId}/oauth-clients`)
    .set(admin.auth)
    .send({ clientName: 'A2A peer', grantTypes: ['client_credentials'], roles: ['ORG_MEMBER'] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const token = await api
    .post('/api/v1/oauth/token')
    .auth(created.body.data._id as string, created.body.data.plainSecret as string)
    .type('form')
    .send({ grant_type: 'client_credentials', resource: audience });
  expect(token.status, JSON.stringify(token.body)).toBe(200);
  return `Bearer ${token.body.access_token as string}`;
}
