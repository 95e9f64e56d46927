import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedAppBuild } from '../frontend/browser/build-app.js';
import { CHROMIUM_AVAILABLE, launchChromium } from '../frontend/browser/headless-chromium.js';
import { startLoopbackCallback, type LoopbackCallback } from './oauth/loopback-callback.js';
import { startProtectedEndpoint, type ProtectedEndpoint } from './oauth/protected-endpoint.js';
import { startRealBackend, type RealBackend } from './oauth/real-backend.js';
import { createOrganization, createTodo, describeAnswer, jwtClaims, rest, signUp } from './oauth/rest-api.js';

/** Where the consent page's screenshot goes (test-results/ is git-ignored). */
const SCREENSHOT = fileURLToPath(
  new URL('../test-results/screenshots/oauth-consent-real-backend.png', import.meta.url),
);
const CLIENT_NAME = 'E2E loopback tool';

/**
 * The backend's OAuth 2.1 server proved with independent peers over real HTTP: openid-client 6 as the
 * OAuth client (RFC 8414 discovery, RFC 7591 registration, PKCE, RFC 9207 `iss` validation, client
 * credentials) and Debian Chromium driving the built frontend's login and consent pages.
 */
describe('OAuth 2.1 against the real backend (openid-client, Chromium)', () => {
  let server: RealBackend | undefined;
  let callback: LoopbackCallback | undefined;
  let frontendDist: string | undefined;
  const endpoints: ProtectedEndpoint[] = [];
  let issuer: string;
  let mcp: ProtectedEndpoint;
  let mcpSupport: ProtectedEndpoint;
  /** Discovery through RFC 8414 (`/.well-known/oauth-authorization-server`), http allowed (loopback). */
  const peerOptions = (seen?: string[]): client.DiscoveryRequestOptions => ({
    algorithm: 'oauth2',
    execute: [client.allowInsecureRequests],
    ...(seen
      ? {
          [client.customFetch]: (url: string, options: client.CustomFetchOptions) => (
            seen.push(url),
            fetch(url, options as RequestInit)
          ),
        }
      : {}),
  });

  beforeAll(async () => {
    // The frontend is only needed by the browser part (one build shared by the run's browser tests).
    if (CHROMIUM_AVAILABLE) frontendDist = await sharedAppBuild();
    server = await startRealBackend(frontendDist ? { frontendDist } : {});
    issuer = server.issuer;
    callback = await startLoopbackCallback();
    mcp = await startProtectedEndpoint(server.backend, `${issuer}/api/v1/mcp`);
    endpoints.push(mcp);
    mcpSupport = await startProtectedEndpoint(server.backend, `${issuer}/api/v1/mcp/support`);
    endpoints.push(mcpSupport);
  });

  afterAll(async () => {
    const steps = [
      ...endpoints.map((endpoint) => () => endpoint.close()),
      () => callback?.close(),
      () => server?.close(),
    ];
    const failures: unknown[] = [];
    for (const step of steps) {
      try {
        await step();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw new AggregateError(failures, 'cleanup failed');
  });

  it('serves RFC 8414 metadata whose issuer is the URL the client discovered from', async () => {
    const seen: string[] = [];
    // Discovery needs a client id to build a Configuration; none is sent anywhere by discovery itself.
    const config = await client.discovery(
      new URL(issuer),
      'discovery-only',
      undefined,
      client.None(),
      peerOptions(seen),
    );
    expect(seen).toEqual([`${issuer}/.well-known/oauth-authorization-server`]);
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(issuer);
    expect(metadata.supportsPKCE('S256')).toBe(true);
    expect(metadata.supportsPKCE('plain')).toBe(false);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.registration_endpoint).toBe(`${issuer}/api/v1/oauth/register`);
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
    expect(metadata.authorization_endpoint).toBe(`${issuer}/oauth/authorize`);
    expect(metadata.token_endpoint).toBe(`${issuer}/api/v1/oauth/token`);
    expect(metadata.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'client_credentials']),
    );
    expect(server?.errorLog).toEqual([]);
  });

  describe.skipIf(!CHROMIUM_AVAILABLE)('authorization code + PKCE through the consent page in Chromium', () => {
    it('registers dynamically, signs in and approves in the browser, exchanges the code, and binds the token to its endpoint', async () => {
      const mcpAudience = `${issuer}/api/v1/mcp`;
      const redirectUri = callback!.redirectUri;
      const person = await signUp(issuer, 'person');

      // RFC 7591 registration of a public client, through the library (it discovers the server first).
      const config = await client.dynamicClientRegistration(
        new URL(issuer),
        {
          client_name: CLIENT_NAME,
          redirect_uris: [redirectUri],
          token_endpoint_auth_method: 'none',
          scope: 'openid profile',
        },
        client.None(),
        peerOptions(),
      );
      const registered = config.clientMetadata();
      const clientId = registered.client_id;
      expect(clientId).toMatch(/^[0-9a-f-]{36}$/);
      expect(registered).toMatchObject({
        client_name: CLIENT_NAME,
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
        scope: 'openid profile',
      });
      expect(registered.client_secret).toBeUndefined();

      const authorize = async () => {
        const verifier = client.randomPKCECodeVerifier();
        const state = client.randomState();
        const url = client.buildAuthorizationUrl(config, {
          redirect_uri: redirectUri,
          scope: 'openid profile',
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          resource: mcpAudience,
          state,
        });
        return { verifier, state, url };
      };
      const first = await authorize();
      expect(`${first.url.origin}${first.url.pathname}`).toBe(`${issuer}/oauth/authorize`);

      const browser = await launchChromium();
      try {
        const { page } = browser;
        const consentHeading = page.getByRole('heading', {
          level: 1,
          name: `Allow ${CLIENT_NAME} to use your account?`,
        });

        // Signed out: the consent page sends the person to sign in, then back to the same request.
        await page.goto(first.url.href);
        await page.waitForURL((url) => url.pathname === '/login');
        expect(new URL(page.url()).searchParams.get('next')).toBe(`${first.url.pathname}${first.url.search}`);
        await page.getByLabel('Email').fill(person.email);
        await page.getByLabel('Password').fill(person.password);
        await page.getByRole('button', { name: 'Sign in' }).click();

        // The consent page, filled from the backend's answer for this registered client.
        await consentHeading.waitFor();
        expect(new URL(page.url()).pathname).toBe('/oauth/authorize');
        await page.getByText(`Signed in as ${person.email}`).waitFor();
        expect(await page.getByText(clientId, { exact: true }).isVisible()).toBe(true);
        expect(await page.getByText(mcpAudience, { exact: true }).isVisible()).toBe(true);
        expect(await page.getByText('Confirm who you are (your account identifier)').isVisible()).toBe(true);
        expect(await page.getByText('See your profile: your display name').isVisible()).toBe(true);
        expect(await page.getByLabel('Remember this decision').isChecked()).toBe(false);
        await mkdir(dirname(SCREENSHOT), { recursive: true });
        await page.screenshot({ path: SCREENSHOT, fullPage: true });

        const firstCallback = callback!.nextCallback();
        await page.getByRole('button', { name: 'Approve' }).click();
        const callbackUrl = await firstCallback;
        await page.waitForURL((url) => url.href === callbackUrl.href);
        expect(`${callbackUrl.origin}${callbackUrl.pathname}`).toBe(redirectUri);
        expect(callbackUrl.searchParams.get('iss')).toBe(issuer);
        expect(callbackUrl.searchParams.get('state')).toBe(first.state);
        expect(callbackUrl.searchParams.get('code')).toBeTruthy();

        // The library validates RFC 9207 iss before any token request: a foreign or missing iss is refused
        // (and the code stays unspent, as the exchange below shows).
        const withIss = (iss: string | null) => {
          const url = new URL(callbackUrl);
          if (iss === null) url.searchParams.delete('iss');
          else url.searchParams.set('iss', iss);
          return url;
        };
        const checks = { pkceCodeVerifier: first.verifier, expectedState: first.state };
        const foreignIss = await client
          .authorizationCodeGrant(config, withIss('http://127.0.0.1:1'), checks, { resource: mcpAudience })
          .catch((error: unknown) => error);
        expect(foreignIss).toBeInstanceOf(client.ClientError);
        expect((foreignIss as Error).cause).toMatchObject({
          message: 'unexpected "iss" (issuer) response parameter value',
        });
        const missingIss = await client
          .authorizationCodeGrant(config, withIss(null), checks, { resource: mcpAudience })
          .catch((error: unknown) => error);
        expect(missingIss).toBeInstanceOf(client.ClientError);
        expect((missingIss as Error).cause).toMatchObject({ message: 'response parameter "iss" (issuer) missing' });

        // The library validates state and RFC 9207 iss, sends the PKCE verifier and resource, and checks the ID token.
        const tokens = await client.authorizationCodeGrant(
          config,
          callbackUrl,
          { pkceCodeVerifier: first.verifier, expectedState: first.state },
          { resource: mcpAudience },
        );
        expect(tokens.token_type).toBe('bearer');
        expect(tokens.scope).toBe('openid profile');
        expect(tokens.refresh_token).toBeUndefined();
        expect(tokens.expires_in).toBeGreaterThan(0);
        expect(tokens.claims()).toMatchObject({
          iss: issuer,
          sub: person.userId,
          aud: clientId,
          name: person.displayName,
        });
        expect(jwtClaims(tokens.access_token)).toMatchObject({
          iss: issuer,
          aud: mcpAudience,
          sub: person.userId,
          azp: clientId,
        });

        // The delegated token: accepted by its own endpoint (positive controls first), refused everywhere else.
        expect((await rest(issuer, 'GET', '/api/v1/auth/me', { token: person.accessToken })).status).toBe(200);
        const own = await mcp.probe(tokens.access_token);
        expect(own.status, JSON.stringify(own)).toBe(200);
        expect(own.principal).toMatchObject({
          kind: 'user',
          userId: person.userId,
          credential: { type: 'delegated_token', authorizedParty: clientId },
        });
        expect((await mcpSupport.probe(tokens.access_token)).status).toBe(401);
        const me = await rest(issuer, 'GET', '/api/v1/auth/me', { token: tokens.access_token });
        expect(me.status, describeAnswer(me)).toBe(401);

        // Not remembered: a second request asks again; its code then fails with the wrong PKCE verifier.
        const second = await authorize();
        await page.goto(second.url.href);
        await consentHeading.waitFor();
        expect(await page.getByLabel('Remember this decision').isChecked()).toBe(false);
        const secondCallback = callback!.nextCallback();
        await page.getByRole('button', { name: 'Approve' }).click();
        const secondUrl = await secondCallback;
        expect(secondUrl.searchParams.get('code')).toBeTruthy();
        expect(secondUrl.searchParams.get('code')).not.toBe(callbackUrl.searchParams.get('code'));
        await expect(
          client.authorizationCodeGrant(
            config,
            secondUrl,
            { pkceCodeVerifier: client.randomPKCECodeVerifier(), expectedState: second.state },
            { resource: mcpAudience },
          ),
        ).rejects.toMatchObject({ name: 'ResponseBodyError', status: 400, error: 'invalid_grant' });

        expect(callback!.received).toHaveLength(2);
        expect(browser.pageErrors).toEqual([]);
        expect(browser.serverErrors).toEqual([]);
      } finally {
        await browser.close();
      }
      expect(server?.errorLog).toEqual([]);
    });
  });

  it('issues client_credentials tokens bound to the client’s organization and to the requested audience', async () => {
    const apiAudience = `${issuer}/api/v1`;
    const mcpAudience = `${issuer}/api/v1/mcp`;
    const adminA = await signUp(issuer, 'admin-a');
    const adminB = await signUp(issuer, 'admin-b');
    const orgA = await createOrganization(issuer, adminA, 'E2E OAuth org A');
    const orgB = await createOrganization(issuer, adminB, 'E2E OAuth org B');
    const todoA = await createTodo(issuer, adminA, orgA, 'A todo of org A');
    const todoB = await createTodo(issuer, adminB, orgB, 'A todo of org B');

    const created = await rest(issuer, 'POST', `/api/v1/organizations/${orgA}/oauth-clients`, {
      token: adminA.accessToken,
      json: { clientName: 'E2E nightly sync', grantTypes: ['client_credentials'], roles: ['ORG_MEMBER'] },
    });
    expect(created.status, describeAnswer(created)).toBe(201);
    const clientId = created.body.data._id as string;
    const secret = created.body.data.plainSecret as string;
    expect(secret).toEqual(expect.any(String));

    const config = await client.discovery(
      new URL(issuer),
      clientId,
      undefined,
      client.ClientSecretBasic(secret),
      peerOptions(),
    );
    const apiToken = await client.clientCredentialsGrant(config, { resource: apiAudience });
    expect(apiToken.token_type).toBe('bearer');
    expect(apiToken.refresh_token).toBeUndefined();
    expect(jwtClaims(apiToken.access_token)).toMatchObject({
      iss: issuer,
      aud: apiAudience,
      sub: clientId,
      org: orgA,
      roles: ['ORG_MEMBER'],
    });

    // Its own organization's records: readable.
    const listA = await rest(issuer, 'GET', `/api/v1/organizations/${orgA}/todos`, { token: apiToken.access_token });
    expect(listA.status, describeAnswer(listA)).toBe(200);
    expect((listA.body.data as { _id: string }[]).map((todo) => todo._id)).toContain(todoA);
    // Another organization's record: exists for its own admin (control), invisible to this client.
    expect(
      (await rest(issuer, 'GET', `/api/v1/organizations/${orgB}/todos/${todoB}`, { token: adminB.accessToken })).status,
    ).toBe(200);
    const foreign = await rest(issuer, 'GET', `/api/v1/organizations/${orgB}/todos/${todoB}`, {
      token: apiToken.access_token,
    });
    expect(foreign.status, describeAnswer(foreign)).toBe(404);

    // A token for the MCP audience: the MCP stand-in accepts it as the machine, the REST API refuses it.
    const mcpToken = await client.clientCredentialsGrant(config, { resource: mcpAudience });
    expect(jwtClaims(mcpToken.access_token)).toMatchObject({ aud: mcpAudience, sub: clientId, org: orgA });
    const atMcp = await mcp.probe(mcpToken.access_token);
    expect(atMcp.status, JSON.stringify(atMcp)).toBe(200);
    expect(atMcp.principal).toMatchObject({ kind: 'machine', clientId, organizationId: orgA, roles: ['ORG_MEMBER'] });
    expect((await mcp.probe(apiToken.access_token)).status).toBe(401);
    const restWithMcpToken = await rest(issuer, 'GET', `/api/v1/organizations/${orgA}/todos`, {
      token: mcpToken.access_token,
    });
    expect(restWithMcpToken.status, describeAnswer(restWithMcpToken)).toBe(401);

    // The `support` instance's stand-in accepts a token for its own audience only.
    const supportToken = await client.clientCredentialsGrant(config, { resource: `${issuer}/api/v1/mcp/support` });
    expect((await mcpSupport.probe(supportToken.access_token)).status).toBe(200);
    expect((await mcpSupport.probe(mcpToken.access_token)).status).toBe(401);

    // A wrong secret. Through HTTP Basic the server answers 401 with a Basic challenge (RFC 6749 §5.2), which the
    // library surfaces as a challenge error; the body still says invalid_client. Through the form body: ResponseBodyError.
    const wrongBasic = await client.discovery(
      new URL(issuer),
      clientId,
      undefined,
      client.ClientSecretBasic(`${secret}x`),
      peerOptions(),
    );
    const challenged = await client.clientCredentialsGrant(wrongBasic, { resource: apiAudience }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(challenged).toBeInstanceOf(client.WWWAuthenticateChallengeError);
    const challenge = challenged as client.WWWAuthenticateChallengeError;
    expect(challenge.status).toBe(401);
    expect(challenge.cause).toEqual([expect.objectContaining({ scheme: 'basic' })]);
    expect(await challenge.response.json()).toMatchObject({ error: 'invalid_client' });
    const wrongPost = await client.discovery(
      new URL(issuer),
      clientId,
      undefined,
      client.ClientSecretPost(`${secret}x`),
      peerOptions(),
    );
    await expect(client.clientCredentialsGrant(wrongPost, { resource: apiAudience })).rejects.toMatchObject({
      name: 'ResponseBodyError',
      status: 401,
      error: 'invalid_client',
    });

    expect(server?.errorLog).toEqual([]);
  });
});
