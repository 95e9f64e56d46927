import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { createOrganization, signUp } from '../../testing/identity.fixtures.js';
import { delegatedToken, MCP_BACKEND_OPTIONS, organizationApiKey } from '../../testing/mcp.fixtures.js';
import { MCP_AUDIENCE, MCP_SUPPORT_AUDIENCE } from '../../testing/oauth.fixtures.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { GOVERNANCE_META } from './mcp-protocol.js';

// The official SDK clients as independent peers, over a real listening socket. The URL names `localhost`
// on an ephemeral port: the Host check admits it only because the backend's issuer is a loopback URL.

const database = useTestDatabase();

/** What the tests read from a tool result, whichever SDK returned it. */
interface PeerToolResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { type: string; text?: string }[];
  _meta?: Record<string, unknown>;
}

/** One connected SDK client, reduced to what the tests use. */
interface PeerSession {
  /** The revision the client settled on. */
  version(): string | undefined;
  /** `MCP-Protocol-Version` of every HTTP request the client sent (null when absent). */
  sentVersions: (string | null)[];
  listTools(): Promise<string[]>;
  callTool(name: string, args: Record<string, unknown>): Promise<PeerToolResult>;
  close(): Promise<void>;
}

interface Peer {
  label: string;
  revision: string;
  connect(url: URL, authorization: string): Promise<PeerSession>;
}

/** A fetch that records the revision header of each request before sending it. */
function recordingFetch(sentVersions: (string | null)[]) {
  return (url: string | URL, init?: RequestInit) => {
    sentVersions.push(new Headers(init?.headers).get('mcp-protocol-version'));
    return fetch(url, init);
  };
}

function sdkV1(revision: '2025-11-25' | '2025-06-18'): Peer {
  return {
    label: `@modelcontextprotocol/sdk 1.32.2 at ${revision}`,
    revision,
    async connect(url, authorization) {
      const sentVersions: (string | null)[] = [];
      const client = new ClientV1({ name: 'wildo-test-v1', version: '1.0.0' });
      const transport = new TransportV1(url, {
        requestInit: { headers: { Authorization: authorization } },
        fetch: recordingFetch(sentVersions),
      });
      if (revision !== '2025-11-25') {
        // The 1.x client asks for its newest revision; ask for the older one, as a client that only knows it would.
        const send = transport.send.bind(transport);
        transport.send = (message, options) =>
          send(
            'method' in message && message.method === 'initialize'
              ? { ...message, params: { ...message.params, protocolVersion: revision } }
              : message,
            options,
          );
      }
      await client.connect(transport);
      return {
        version: () => transport.protocolVersion,
        sentVersions,
        listTools: async () => (await client.listTools()).tools.map((tool) => tool.name),
        callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as PeerToolResult,
        close: () => client.close(),
      };
    },
  };
}

const sdkV2: Peer = {
  label: '@modelcontextprotocol/client 2.4.0 pinned to 2026-07-28',
  revision: '2026-07-28',
  async connect(url, authorization) {
    const sentVersions: (string | null)[] = [];
    const client = new ClientV2(
      { name: 'wildo-test-v2', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new TransportV2(url, {
        requestInit: { headers: { Authorization: authorization } },
        fetch: recordingFetch(sentVersions),
      }),
    );
    return {
      version: () => client.getNegotiatedProtocolVersion(),
      sentVersions,
      listTools: async () => (await client.listTools()).tools.map((tool) => tool.name),
      callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as PeerToolResult,
      close: () => client.close(),
    };
  },
};

const PEERS: Peer[] = [sdkV1('2025-11-25'), sdkV1('2025-06-18'), sdkV2];

/** A listening backend, an organization owner, and the endpoint URLs under `localhost`. */
async function listening() {
  const t = await createTestBackend(database(), MCP_BACKEND_OPTIONS);
  const owner = await signUp(t.api);
  const organizationId = await createOrganization(t.api, owner);
  const { url } = await t.backend.listen(0);
  const base = `http://localhost:${new URL(url).port}/api/v1/mcp`;
  return { t, owner, organizationId, endpoint: new URL(base), support: new URL(`${base}/support`) };
}

/** Lists, creates, reads back and lists again through one session. */
async function exercise(session: PeerSession) {
  const names = await session.listTools();
  expect(names).toEqual(expect.arrayContaining(['todos__create', 'todos__read', 'todos__list']));
  expect(names).not.toContain('todos__stats');
  const created = await session.callTool('todos__create', { title: 'From an SDK peer', priority: 2 });
  expect(created.isError, JSON.stringify(created)).toBeFalsy();
  expect(created.structuredContent).toMatchObject({ title: 'From an SDK peer', priority: 2, status: 'todo' });
  const id = created.structuredContent?._id as string;
  const read = await session.callTool('todos__read', { todoId: id });
  expect(read.structuredContent).toMatchObject({ _id: id, title: 'From an SDK peer' });
  expect(read.content[0]?.type).toBe('text');
  const page = await session.callTool('todos__list', { limit: 5 });
  expect((page.structuredContent!.data as { _id: string }[]).map((todo) => todo._id)).toContain(id);
}

async function closing<T>(session: PeerSession, run: (session: PeerSession) => Promise<T>): Promise<T> {
  try {
    return await run(session);
  } finally {
    await session.close();
  }
}

for (const peer of PEERS) {
  describe(peer.label, () => {
    it('lists and calls tools with a delegated token for the exact endpoint', async () => {
      const { t, owner, endpoint } = await listening();
      await using _ = t;
      const token = await delegatedToken(t.api, owner, MCP_AUDIENCE);
      await closing(await peer.connect(endpoint, token), async (session) => {
        expect(session.version()).toBe(peer.revision);
        await exercise(session);
        // Every request after the first names the revision (the handshake's initialize may not).
        expect(new Set(session.sentVersions.slice(1))).toEqual(new Set([peer.revision]));
      });
    });

    it('lists and calls tools with an API key', async () => {
      const { t, owner, organizationId, endpoint } = await listening();
      await using _ = t;
      const key = await organizationApiKey(t.api, owner, organizationId);
      await closing(await peer.connect(endpoint, key), async (session) => {
        expect(session.version()).toBe(peer.revision);
        await exercise(session);
      });
    });

    it('reaches a named instance with a token for that instance, and reads a governed refusal', async () => {
      const { t, owner, organizationId, support } = await listening();
      await using _ = t;
      const token = await delegatedToken(t.api, owner, MCP_SUPPORT_AUDIENCE);
      await closing(await peer.connect(support, token), async (session) => {
        expect((await session.listTools()).sort()).toEqual([
          'knowledge-documents__read',
          'knowledge-documents__search',
          'todos__stats',
        ]);
        expect((await session.callTool('todos__stats', { organizationId })).structuredContent).toEqual({
          total: 0,
          byStatus: { todo: 0, in_progress: 0, done: 0 },
        });
        const refused = await session.callTool('knowledge-documents__read', {
          knowledgeDocumentId: 'missing-document',
          organizationId: 'not-mine',
        });
        expect(refused.isError).toBe(true);
        expect(refused._meta?.[GOVERNANCE_META.TOOL_ERROR]).toEqual({
          error: 'not_found',
          tool: 'knowledge-documents__read',
        });
      });
    });

    it('cannot use a token for another endpoint', async () => {
      const { t, owner, endpoint } = await listening();
      await using _ = t;
      const token = await delegatedToken(t.api, owner, MCP_SUPPORT_AUDIENCE);
      // The SDKs surface the 401 as an HTTP error carrying the JSON-RPC body.
      await expect(connectAndList(peer, endpoint, token)).rejects.toThrow(/access token is for another audience/);
    });
  });
}

/** Connects and lists; whichever step the 401 lands on, the promise rejects. */
async function connectAndList(peer: Peer, url: URL, authorization: string): Promise<string[]> {
  const session = await peer.connect(url, authorization);
  return closing(session, (s) => s.listTools());
}

describe('SDK peers against a non-loopback issuer', () => {
  it('are refused when the Host is not the public one (DNS-rebinding protection)', async () => {
    await using t: TestBackend = await createTestBackend(database(), { publicUrl: 'https://tools.example.com' });
    const { url } = await t.backend.listen(0);
    const endpoint = new URL(`http://localhost:${new URL(url).port}/api/v1/mcp`);
    for (const peer of PEERS)
      await expect(peer.connect(endpoint, 'Bearer x'), peer.label).rejects.toThrow(/Invalid Host header|HTTP 403/);
  });
});
