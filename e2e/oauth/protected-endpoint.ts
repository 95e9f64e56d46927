import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  SAAS_SERVICE_TYPES,
  toFrameworkError,
  type AuthenticatedPrincipal,
  type ResourceServerAuthenticator,
  type WildoBackend,
} from '@wildo/backend-api';

/** What the stand-in answered: the status and, on success, the principal the engine derived from the token. */
export interface ProbeResult {
  status: number;
  principal?: AuthenticatedPrincipal;
  error?: string;
}

/** A stand-in resource server (for example the MCP endpoint) reachable over HTTP on 127.0.0.1. */
export interface ProtectedEndpoint {
  audience: string;
  url: string;
  /** `GET /probe` with `Authorization: Bearer <token>`. */
  probe(accessToken: string): Promise<ProbeResult>;
  close(): Promise<void>;
}

/**
 * Starts a stand-in protected endpoint for `audience`, authenticating with the backend container's own
 * `ResourceServerAuthenticator` (as the in-process tests do): 200 with the principal for a token of this
 * audience, 401 without a credential, the framework error's status for a refused one.
 */
export async function startProtectedEndpoint(backend: WildoBackend, audience: string): Promise<ProtectedEndpoint> {
  const authenticator = backend.container.get<ResourceServerAuthenticator>(
    SAAS_SERVICE_TYPES.ResourceServerAuthenticator,
  );
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method !== 'GET' || req.url !== '/probe') return send(404, { error: 'not found' });
    authenticator.authenticate(req.headers.authorization, audience).then(
      (principal) => (principal ? send(200, { principal }) : send(401, { error: 'no credential' })),
      (error: unknown) => {
        const failure = toFrameworkError(error);
        send(failure.status, { error: failure.code });
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    audience,
    url,
    async probe(accessToken) {
      const res = await fetch(`${url}/probe`, { headers: { authorization: `Bearer ${accessToken}` } });
      const body = (await res.json()) as { principal?: AuthenticatedPrincipal; error?: string };
      return { status: res.status, ...body };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
