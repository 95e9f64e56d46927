import { addMember, createOrganization, signUp, uniqueMarker } from '../support/fixtures.js';
import type { HttpClient } from '../support/http-client.js';
import {
  createOrganizationApiKey,
  createPublicOAuthClient,
  delegatedToken,
  protectedResourceOf,
} from '../support/mcp-credentials.js';
import { MCP_PATH, SUPPORT_PATH, type McpTenant, type McpWorld } from './scenario-context.js';

async function tenant(
  client: HttpClient,
  label: 'A' | 'B',
  audiences: { mcp: string; support: string },
): Promise<McpTenant> {
  const admin = await signUp(client, `mcp-${label.toLowerCase()}`);
  const organizationId = await createOrganization(client, admin, uniqueMarker(`e2e MCP org ${label}`));
  const apiKey = await createOrganizationApiKey(client, admin, organizationId, {
    name: `MCP ${label}`,
    label: `API key of org ${label}`,
  });
  const oauthClient = await createPublicOAuthClient(client, admin, organizationId, `e2e assistant of org ${label}`);
  const mcpToken = await delegatedToken(
    client,
    admin,
    oauthClient,
    audiences.mcp,
    `delegated /mcp token of admin ${label}`,
  );
  const supportToken = await delegatedToken(
    client,
    admin,
    oauthClient,
    audiences.support,
    `delegated /mcp/support token of admin ${label}`,
  );
  return { admin, organizationId, apiKey, mcpToken, supportToken };
}

/**
 * Provisions the scenario's tenants through the public API only: two organizations, each with its admin, an
 * ORG_MEMBER API key and the admin's delegated tokens for `/mcp` and `/mcp/support` (a public organization OAuth
 * client registered through the REST API, the consent calls, the token endpoint; no dynamic registration
 * needed), plus an ORG_MEMBER of A with a delegated token. Three sign-ups.
 */
export async function provisionWorld(client: HttpClient): Promise<McpWorld> {
  // The audiences as the endpoints' RFC 9728 metadata names them (the stack's public URL may differ from BASE_URL).
  const audiences = {
    mcp: await protectedResourceOf(client, MCP_PATH),
    support: await protectedResourceOf(client, SUPPORT_PATH),
  };
  const a = await tenant(client, 'A', audiences);
  const b = await tenant(client, 'B', audiences);
  const member = await signUp(client, 'mcp-member-a');
  // Accepting the invitation revokes the member's outstanding tokens; addMember keeps the fresh one.
  await addMember(client, a.admin, a.organizationId, member, 'ORG_MEMBER');
  const oauthClient = await createPublicOAuthClient(client, a.admin, a.organizationId, 'e2e assistant of a member');
  const memberToken = await delegatedToken(
    client,
    member,
    oauthClient,
    audiences.mcp,
    'delegated /mcp token of member of A',
  );
  return {
    mcpAudience: audiences.mcp,
    supportAudience: audiences.support,
    a,
    b,
    memberA: { user: member, mcpToken: memberToken },
  };
}
