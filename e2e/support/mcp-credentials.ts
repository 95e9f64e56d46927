import { createHash, randomBytes } from 'node:crypto';
import { BearerToken } from './bearer-token.js';
import { FixtureError, type ScenarioUser } from './fixtures.js';
import type { HttpClient, HttpResult } from './http-client.js';
import { dataOf, describeResponse, recordOf } from './responses.js';

/**
 * A credential for an MCP endpoint: the value of the `Authorization` header, which never prints (the secret is
 * held by a {@link BearerToken}). API keys go in raw (`sk_org_...`), tokens as `Bearer <token>`.
 */
export class McpCredential {
  readonly #secret: BearerToken;

  constructor(
    /** What the credential is, for report lines: `api key of org A`, `delegated token (mcp)`. */
    readonly label: string,
    readonly kind: 'api-key' | 'bearer',
    secret: BearerToken,
  ) {
    this.#secret = secret;
  }

  /** The `Authorization` header value; only HTTP clients call this. */
  header(): string {
    return this.kind === 'api-key' ? this.#secret.reveal() : `Bearer ${this.#secret.reveal()}`;
  }

  /** The bearer token itself (for tampering probes); undefined for an API key. */
  token(): BearerToken | undefined {
    return this.kind === 'bearer' ? this.#secret : undefined;
  }

  toString(): string {
    return `[credential ${this.label}]`;
  }

  toJSON(): string {
    return this.toString();
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}

function expectStatus(res: HttpResult, status: number, what: string): void {
  if (res.status !== status) throw new FixtureError(`${what}: expected status ${status}, got ${describeResponse(res)}`);
}

/** Creates an organization API key (`POST /organizations/:id/api-keys`) as the organization's admin. */
export async function createOrganizationApiKey(
  client: HttpClient,
  admin: ScenarioUser,
  organizationId: string,
  options: { name?: string; roles?: readonly string[]; label?: string } = {},
): Promise<McpCredential> {
  const res = await client.post(
    `/api/v1/organizations/${organizationId}/api-keys`,
    { name: options.name ?? 'e2e MCP key', roles: options.roles ?? ['ORG_MEMBER'] },
    { token: admin.token },
  );
  expectStatus(res, 201, 'create API key');
  const plainKey = (dataOf(res) as { plainKey?: unknown } | undefined)?.plainKey;
  if (typeof plainKey !== 'string') throw new FixtureError('create API key: no plainKey in the answer');
  return new McpCredential(options.label ?? 'organization API key', 'api-key', new BearerToken(plainKey));
}

/** The redirect URI the e2e OAuth clients register: loopback, never contacted (the code is read from `redirect_to`). */
export const E2E_REDIRECT_URI = 'http://127.0.0.1/e2e-mcp-callback';

/**
 * Registers a public organization OAuth client for the authorization code grant through the REST API
 * (`grantTypes: ['authorization_code']`, `tokenEndpointAuthMethod: 'none'`, a loopback redirect): the way to
 * get delegated tokens from a stack whose dynamic client registration is off (the reference default).
 */
export async function createPublicOAuthClient(
  client: HttpClient,
  admin: ScenarioUser,
  organizationId: string,
  clientName = 'e2e MCP assistant',
): Promise<string> {
  const res = await client.post(
    `/api/v1/organizations/${organizationId}/oauth-clients`,
    {
      clientName,
      grantTypes: ['authorization_code'],
      tokenEndpointAuthMethod: 'none',
      redirectUris: [E2E_REDIRECT_URI],
      scope: 'openid profile',
    },
    { token: admin.token },
  );
  expectStatus(res, 201, 'create OAuth client');
  const record = recordOf(res);
  if (!record) throw new FixtureError('create OAuth client: no id in the answer');
  return record._id;
}

/**
 * A person's delegated token for `resource` (an MCP endpoint URL), through the real OAuth endpoints: the consent
 * page's calls (`POST /api/v1/oauth/authorize`, then `/decision` with `approve`) as the signed-in person, then the
 * code exchanged with its PKCE verifier at `POST /api/v1/oauth/token`.
 */
export async function delegatedToken(
  client: HttpClient,
  person: ScenarioUser,
  clientId: string,
  resource: string,
  label = 'delegated token',
): Promise<McpCredential> {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(8).toString('hex');
  const request = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: E2E_REDIRECT_URI,
    scope: 'openid',
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource,
  };
  const started = await client.post('/api/v1/oauth/authorize', request, { token: person.token });
  expectStatus(started, 200, 'authorize');
  const prompt = dataOf(started) as { kind?: string; consent_token?: string; redirect_to?: string } | undefined;
  let redirectTo = prompt?.redirect_to;
  if (prompt?.kind === 'consent') {
    const decided = await client.post(
      '/api/v1/oauth/authorize/decision',
      { consent_token: prompt.consent_token, decision: 'approve', remember: false },
      { token: person.token },
    );
    expectStatus(decided, 200, 'consent decision');
    redirectTo = (dataOf(decided) as { redirect_to?: string } | undefined)?.redirect_to;
  }
  if (!redirectTo) throw new FixtureError('authorize: no redirect in the answer');
  const redirect = new URL(redirectTo);
  const code = redirect.searchParams.get('code');
  if (!code || redirect.searchParams.get('state') !== state)
    throw new FixtureError(`authorize: no code for this state (error ${redirect.searchParams.get('error') ?? 'none'})`);
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: E2E_REDIRECT_URI,
    client_id: clientId,
    code_verifier: verifier,
  });
  const exchanged = await client.request('POST', '/api/v1/oauth/token', {
    rawBody: form.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expectStatus(exchanged, 200, 'token exchange');
  const accessToken = (exchanged.body as { access_token?: unknown } | undefined)?.access_token;
  if (typeof accessToken !== 'string') throw new FixtureError('token exchange: no access_token in the answer');
  return new McpCredential(label, 'bearer', new BearerToken(accessToken));
}

/** The audience of an MCP endpoint as its RFC 9728 metadata names it (`/.well-known/oauth-protected-resource/api/v1/mcp[/instance]`). */
export async function protectedResourceOf(client: HttpClient, endpointPath: string): Promise<string> {
  const res = await client.get(`/.well-known/oauth-protected-resource${endpointPath}`);
  expectStatus(res, 200, `protected resource metadata of ${endpointPath}`);
  const resource = (res.body as { resource?: unknown } | undefined)?.resource;
  if (typeof resource !== 'string')
    throw new FixtureError(`protected resource metadata of ${endpointPath}: no resource`);
  return resource;
}
