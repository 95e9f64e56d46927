import { createHash, randomBytes } from 'node:crypto';
import { seedTodo } from './bench-seed.js';

/** What the MCP benchmark reads, and the credentials allowed to read it through the MCP endpoint. */
export interface SeededMcpTodo {
  todoId: string;
  organizationId: string;
  /** `Bearer <delegated token>` for the endpoint's audience (the person who owns the organization). */
  token: string;
  /** An organization API key (ORG_MEMBER), sent raw. */
  apiKey: string;
}

const REDIRECT_URI = 'http://127.0.0.1/bench-callback';

async function call(
  url: string,
  init: { method?: string; token?: string; json?: unknown; form?: Record<string, string> },
  expected: number,
): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: string | undefined;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  } else if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const response = await fetch(url, {
    method: init.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  if (response.status !== expected)
    throw new Error(`${init.method ?? 'POST'} ${new URL(url).pathname} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

const dataOf = (answer: Record<string, unknown>) => answer.data as Record<string, unknown>;

/**
 * Seeds a todo like `bench:rest` does (sign-up, organization, todo through the HTTP API), then obtains the
 * credentials an MCP client would hold: a delegated token through the real OAuth flow (an organization OAuth
 * client for the authorization code grant, the consent calls, the token endpoint with PKCE) and an API key.
 */
export async function seedMcpTodo(frameworkUrl: string): Promise<SeededMcpTodo> {
  const seeded = await seedTodo(frameworkUrl);
  const organizationId = /\/organizations\/([^/]+)\/todos\//.exec(seeded.todoPath)?.[1];
  if (!organizationId) throw new Error(`No organization in ${seeded.todoPath}.`);
  const api = `${frameworkUrl}/api/v1`;
  const audience = (
    await call(`${frameworkUrl}/.well-known/oauth-protected-resource/api/v1/mcp`, { method: 'GET' }, 200)
  ).resource as string;

  const oauthClient = dataOf(
    await call(
      `${api}/organizations/${organizationId}/oauth-clients`,
      {
        token: seeded.token,
        json: {
          clientName: 'Bench assistant',
          grantTypes: ['authorization_code'],
          tokenEndpointAuthMethod: 'none',
          redirectUris: [REDIRECT_URI],
          scope: 'openid',
        },
      },
      201,
    ),
  )._id as string;
  const verifier = randomBytes(32).toString('base64url');
  const authorize = dataOf(
    await call(
      `${api}/oauth/authorize`,
      {
        token: seeded.token,
        json: {
          response_type: 'code',
          client_id: oauthClient,
          redirect_uri: REDIRECT_URI,
          scope: 'openid',
          code_challenge: createHash('sha256').update(verifier).digest('base64url'),
          code_challenge_method: 'S256',
          resource: audience,
        },
      },
      200,
    ),
  );
  const redirect =
    authorize.kind === 'consent'
      ? (dataOf(
          await call(
            `${api}/oauth/authorize/decision`,
            { token: seeded.token, json: { consent_token: authorize.consent_token, decision: 'approve' } },
            200,
          ),
        ).redirect_to as string)
      : (authorize.redirect_to as string);
  const code = new URL(redirect).searchParams.get('code');
  if (!code) throw new Error(`The consent did not yield a code: ${redirect}`);
  const tokens = await call(
    `${api}/oauth/token`,
    {
      form: {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        client_id: oauthClient,
        code_verifier: verifier,
      },
    },
    200,
  );

  const key = dataOf(
    await call(
      `${api}/organizations/${organizationId}/api-keys`,
      { token: seeded.token, json: { name: 'Bench', roles: ['ORG_MEMBER'] } },
      201,
    ),
  );
  return {
    todoId: seeded.todoId,
    organizationId,
    token: `Bearer ${tokens.access_token as string}`,
    apiKey: key.plainKey as string,
  };
}
