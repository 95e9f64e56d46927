import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import {
  OAuthAuthorizeRequestSchema,
  OAuthConsentDecisionRequestSchema,
  type OAuthAuthorizeRequest,
  type ReceivedInvitation,
} from '@wildo/shared-lib';

/** The one account of the stub. */
export const STUB_USER = {
  _id: 'user-ada',
  email: 'ada@example.com',
  displayName: 'Ada',
  password: 'a long passphrase',
};

/** The one registered client of the stub. */
export const STUB_CLIENT = {
  client_id: 'example-mcp-tool',
  client_name: 'Example MCP Tool',
  client_uri: 'https://tool.example',
  redirect_uri: 'https://tool.example/callback',
};

/** The delegatable endpoint the client asks for. */
export const STUB_RESOURCE = 'http://localhost:4241/api/v1/mcp';

/** A remembered consent as the stub stores it. */
export interface StubGrant {
  _id: string;
  userId: string;
  clientId: string;
  clientName: string;
  resource: string;
  scopes: string[];
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
}

/** An invitation addressed to the stub's account, and what became of it. */
export interface StubInvitation extends ReceivedInvitation {
  status: 'pending' | 'accepted' | 'declined';
}

/** The invitations every reset starts with (both addressed to {@link STUB_USER}). */
export const STUB_INVITATIONS: readonly ReceivedInvitation[] = [
  {
    _id: 'inv-engines',
    organizationId: 'org-engines',
    organizationName: 'Analytical Engines',
    role: 'ORG_MEMBER',
    invitedBy: 'Grace',
    createdAt: '2030-11-05T10:00:00.000Z',
    expiresAt: '2030-11-19T10:00:00.000Z',
  },
  {
    _id: 'inv-difference',
    organizationId: 'org-difference',
    organizationName: 'Difference Ltd',
    role: 'ORG_MANAGER',
    invitedBy: null,
    createdAt: '2030-11-06T10:00:00.000Z',
    expiresAt: '2030-11-20T10:00:00.000Z',
  },
];

/** A running stub: the built app plus the API contract in memory. */
export interface StubBackend {
  url: string;
  /** Every decision body received, in order. */
  decisions: unknown[];
  grants: Map<string, StubGrant>;
  invitations: Map<string, StubInvitation>;
  reset(): void;
  close(): Promise<void>;
}

const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';
const CONTENT_TYPES: Record<string, string> = {
  '.html': HTML_CONTENT_TYPE,
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly reason?: string,
  ) {
    super(message);
  }
}

function id(): string {
  return randomBytes(12).toString('hex');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpFailure(400, 'MALFORMED_JSON', 'The body is not valid JSON.');
  }
}

function withQuery(base: string, params: Record<string, string | undefined>): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  return url.href;
}

/**
 * Starts a `node:http` server on an ephemeral port that serves the built app from `staticDir` (with
 * the single-page fallback) and implements the login, authorize, decision, consent-grant and invitation
 * contract in memory. Requests are checked with the shared Zod contracts, so a page that sends an unknown
 * field fails here as it would against the real backend.
 */
export async function startStubBackend(staticDir: string): Promise<StubBackend> {
  const root = resolve(staticDir);
  const sessions = new Map<string, string>();
  const consentRequests = new Map<string, { userId: string; request: OAuthAuthorizeRequest; scopes: string[] }>();
  const grants = new Map<string, StubGrant>();
  const decisions: unknown[] = [];
  const invitations = new Map<string, StubInvitation>();
  const seedInvitations = () => {
    invitations.clear();
    for (const invitation of STUB_INVITATIONS) invitations.set(invitation._id, { ...invitation, status: 'pending' });
  };
  seedInvitations();

  const userOf = (req: IncomingMessage): string => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const userId = token === undefined ? undefined : sessions.get(token);
    if (!userId) throw new HttpFailure(401, 'UNAUTHENTICATED', 'Sign in to continue.', 'no_credential');
    return userId;
  };

  const findGrant = (userId: string, clientId: string, resource: string) =>
    [...grants.values()].find((g) => g.userId === userId && g.clientId === clientId && g.resource === resource);

  const codeRedirect = (request: OAuthAuthorizeRequest) =>
    withQuery(request.redirect_uri, { code: id(), state: request.state });

  async function api(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const route = `${req.method} ${path}`;
    if (route === 'POST /api/v1/auth/login') {
      const body = (await readJson(req)) as { email?: unknown; password?: unknown };
      if (body.email !== STUB_USER.email || body.password !== STUB_USER.password) {
        throw new HttpFailure(401, 'UNAUTHENTICATED', 'The email or password is incorrect.', 'credential_invalid');
      }
      const accessToken = id();
      sessions.set(accessToken, STUB_USER._id);
      const { password: _password, ...user } = STUB_USER;
      return sendJson(res, 200, { data: { user, accessToken, tokenType: 'Bearer', expiresIn: 900 } });
    }
    if (route === 'GET /api/v1/auth/me') {
      userOf(req);
      const { password: _password, ...user } = STUB_USER;
      return sendJson(res, 200, { data: { user, organizations: [] } });
    }
    if (route === 'POST /api/v1/oauth/authorize') {
      const userId = userOf(req);
      const parsed = OAuthAuthorizeRequestSchema.safeParse(await readJson(req));
      if (!parsed.success)
        throw new HttpFailure(400, 'VALIDATION_FAILED', 'The authorization request is malformed.', 'input_invalid');
      const request = parsed.data;
      if (request.client_id !== STUB_CLIENT.client_id)
        throw new HttpFailure(400, 'BAD_REQUEST', 'This application is not registered.');
      if (request.redirect_uri !== STUB_CLIENT.redirect_uri) {
        throw new HttpFailure(400, 'BAD_REQUEST', 'The redirect address is not registered for this application.');
      }
      if (request.response_type !== 'code') {
        return sendJson(res, 200, {
          data: {
            kind: 'redirect',
            redirect_to: withQuery(request.redirect_uri, { error: 'unsupported_response_type', state: request.state }),
          },
        });
      }
      const scopes = (request.scope ?? '').split(' ').filter(Boolean);
      const resource = request.resource ?? STUB_RESOURCE;
      const grant = findGrant(userId, request.client_id, resource);
      if (grant && Date.parse(grant.expiresAt) > Date.now() && scopes.every((s) => grant.scopes.includes(s))) {
        return sendJson(res, 200, { data: { kind: 'redirect', redirect_to: codeRedirect(request) } });
      }
      const consentToken = id();
      consentRequests.set(consentToken, { userId, request, scopes });
      const { client_id, client_name, client_uri } = STUB_CLIENT;
      return sendJson(res, 200, {
        data: {
          kind: 'consent',
          consent_token: consentToken,
          client: { client_id, client_name, client_uri },
          resource,
          scopes,
          expires_in: 600,
        },
      });
    }
    if (route === 'POST /api/v1/oauth/authorize/decision') {
      const userId = userOf(req);
      const raw = await readJson(req);
      decisions.push(raw);
      const parsed = OAuthConsentDecisionRequestSchema.safeParse(raw);
      if (!parsed.success)
        throw new HttpFailure(400, 'VALIDATION_FAILED', 'The decision is malformed.', 'input_invalid');
      const pending = consentRequests.get(parsed.data.consent_token);
      // Single use: a replayed or foreign token is refused.
      consentRequests.delete(parsed.data.consent_token);
      if (!pending || pending.userId !== userId)
        throw new HttpFailure(400, 'BAD_REQUEST', 'This consent request has expired or was already answered.');
      const { request, scopes } = pending;
      if (parsed.data.decision === 'deny') {
        return sendJson(res, 200, {
          data: { redirect_to: withQuery(request.redirect_uri, { error: 'access_denied', state: request.state }) },
        });
      }
      if (parsed.data.remember) {
        const now = new Date().toISOString();
        const resource = request.resource ?? STUB_RESOURCE;
        const existing = findGrant(userId, request.client_id, resource);
        const grant: StubGrant = {
          _id: existing?._id ?? id(),
          userId,
          clientId: request.client_id,
          clientName: STUB_CLIENT.client_name,
          resource,
          scopes: [...new Set([...(existing?.scopes ?? []), ...scopes])],
          expiresAt: new Date(Date.now() + 180 * 24 * 3600 * 1000).toISOString(),
          createdAt: existing?.createdAt ?? now,
          updatedAt: now,
        };
        grants.set(grant._id, grant);
      }
      return sendJson(res, 200, { data: { redirect_to: codeRedirect(request) } });
    }
    if (route === 'GET /api/v1/oauth-consent-grants') {
      const userId = userOf(req);
      const data = [...grants.values()].filter((g) => g.userId === userId).map(({ userId: _owner, ...grant }) => grant);
      return sendJson(res, 200, { data, nextCursor: null });
    }
    const withdrawnId = /^DELETE \/api\/v1\/oauth-consent-grants\/([^/]+)$/.exec(route)?.[1];
    if (withdrawnId !== undefined) {
      const userId = userOf(req);
      const grant = grants.get(decodeURIComponent(withdrawnId));
      if (!grant || grant.userId !== userId)
        throw new HttpFailure(404, 'NOT_FOUND', 'No remembered consent with this id.');
      grants.delete(grant._id);
      return sendJson(res, 200, { data: { _id: grant._id, deleted: true } });
    }
    if (route === 'GET /api/v1/invitations') {
      userOf(req);
      const data = [...invitations.values()]
        .filter((i) => i.status === 'pending')
        .map(({ status: _status, ...invitation }) => invitation);
      return sendJson(res, 200, { data });
    }
    const [, invitationId, choice] = /^POST \/api\/v1\/invitations\/([^/]+)\/(accept|decline)$/.exec(route) ?? [];
    if (invitationId !== undefined && (choice === 'accept' || choice === 'decline'))
      return answerInvitation(req, res, decodeURIComponent(invitationId), choice);
    throw new HttpFailure(404, 'NOT_FOUND', 'No such route.');
  }

  /** Accepting replaces the caller's session, as the real backend's authorization-version bump does. */
  function answerInvitation(
    req: IncomingMessage,
    res: ServerResponse,
    invitationId: string,
    choice: 'accept' | 'decline',
  ): void {
    const userId = userOf(req);
    const invitation = invitations.get(invitationId);
    if (!invitation) throw new HttpFailure(404, 'NOT_FOUND', 'No such invitation.');
    if (invitation.status !== 'pending')
      throw new HttpFailure(
        409,
        'CONFLICT',
        'This invitation is no longer open: it was answered, revoked or has expired.',
      );
    if (choice === 'decline') {
      invitation.status = 'declined';
      return sendJson(res, 200, { data: { _id: invitation._id, status: 'declined' } });
    }
    invitation.status = 'accepted';
    for (const [token, owner] of sessions) if (owner === userId) sessions.delete(token);
    const accessToken = id();
    sessions.set(accessToken, userId);
    const organization = {
      _id: invitation.organizationId,
      name: invitation.organizationName,
      role: invitation.role,
      createdAt: invitation.createdAt,
    };
    return sendJson(res, 200, { data: { organization, accessToken, tokenType: 'Bearer', expiresIn: 900 } });
  }

  async function serveApp(res: ServerResponse, path: string): Promise<void> {
    const file = resolve(join(root, decodeURIComponent(path)));
    const inside = file.startsWith(root + sep);
    const body = inside && extname(file) ? await readFile(file).catch(() => undefined) : undefined;
    if (body) {
      res.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
      return;
    }
    // Single-page fallback: every other path is a page of the app.
    res.writeHead(200, { 'content-type': HTML_CONTENT_TYPE, 'cache-control': 'no-store' });
    res.end(await readFile(join(root, 'index.html')));
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://stub.invalid').pathname;
    const handled = path.startsWith('/api/') ? api(req, res, path) : serveApp(res, path);
    handled.catch((error: unknown) => {
      const failure =
        error instanceof HttpFailure ? error : new HttpFailure(500, 'INTERNAL', 'An internal error occurred.');
      sendJson(res, failure.status, {
        error: { code: failure.code, message: failure.message, reason: failure.reason, requestId: id() },
      });
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    decisions,
    grants,
    invitations,
    reset() {
      sessions.clear();
      consentRequests.clear();
      grants.clear();
      decisions.length = 0;
      seedInvitations();
    },
    close: () =>
      new Promise<void>((done, fail) => {
        server.closeAllConnections();
        server.close((error) => (error ? fail(error) : done()));
      }),
  };
}
