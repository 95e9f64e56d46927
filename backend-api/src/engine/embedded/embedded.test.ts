import { randomUUID } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GoogleGenAI, type GenerateContentParameters } from '@google/genai';
import OpenAI from 'openai';
import { CORE_ORG_ROLES, defineResource, ResourcePrimaryScope } from '@wildo/shared-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
// Imported as an application imports it: the package entry.
import {
  createEmbeddedWildo,
  EmbeddedCallError,
  embeddedPrincipal,
  extractRecord,
  VENDOR_FORMATS,
  vendorNameOf,
  type EmbeddedWildo,
} from '@wildo/backend-api/embedded';
import { callTool, MCP_PATH, type ToolResult } from '../../testing/mcp.fixtures.js';
import { TEST_PRIMARY_SECRET, useTestDatabase } from '../../testing/test-backend.js';
import { createSilentLogger } from '../logging/index.js';
import { governanceProbesApplication } from '../governance/governance-probes.fixtures.js';
import { governedStack, type Caller, type GovernedStack } from '../governance/governance-surfaces.fixtures.js';

// The embedded entry against the governance probes: an engine of its own on the probes' database (nothing listens),
// called beside the same application served over MCP. One table of cases runs on both; each answer must be the same.

const database = useTestDatabase();
let stack: GovernedStack;
let wildo: EmbeddedWildo;

beforeAll(async () => {
  stack = await governedStack(database());
  wildo = await createEmbeddedWildo({
    application: governanceProbesApplication,
    database: database(),
    logger: createSilentLogger(),
    primarySecret: TEST_PRIMARY_SECRET,
    coordinationKeyPrefix: `test:${randomUUID()}:`,
    env: {},
  });
});
afterAll(async () => {
  await wildo?.close();
  await stack?.t.close();
});

/** One call, its caller and what both paths must answer: `ok`, or the refusal's machine reason or failure code. */
interface ParityCase {
  title: string;
  caller: Caller;
  tool: string;
  args: Record<string, unknown>;
  expected: 'ok' | { meta: string; field: string; value: unknown };
}

const PARITY_CASES: readonly ParityCase[] = [
  {
    title: 'projects a read at every depth',
    caller: 'member',
    tool: 'stays__details',
    args: { stayId: 'ws-1001' },
    expected: 'ok',
  },
  {
    title: 'withholds a photo on an undeclared host',
    caller: 'member',
    tool: 'stays__photos',
    args: { stayId: 'ws-1001' },
    expected: 'ok',
  },
  {
    title: 'withholds HTML with a script',
    caller: 'member',
    tool: 'stays__description',
    args: { stayId: 'ws-script' },
    expected: 'ok',
  },
  {
    title: 'refuses a backend answer breaking the contract',
    caller: 'member',
    tool: 'stays__room-status',
    args: { propertyId: 'ws-1003' },
    expected: {
      meta: 'dev.wildo/contract_violation',
      field: 'invalid',
      value: [{ field: 'rooms[0].pricePerNight', expected: 'number' }],
    },
  },
  {
    title: 'refuses input outside the contract',
    caller: 'member',
    tool: 'stays__details',
    args: { stayId: 'ws-1001', margin: 12 },
    expected: { meta: 'dev.wildo/input_invalid', field: 'reason', value: 'input_invalid' },
  },
  {
    title: 'refuses a caller the allow list does not name',
    caller: 'member',
    tool: 'stays__book',
    args: { quoteId: 'Q-ok' },
    expected: { meta: 'dev.wildo/policy_denied', field: 'reason', value: 'principal_not_allowed' },
  },
  {
    title: 'books for a caller the allow list names',
    caller: 'manager',
    tool: 'stays__book',
    args: { quoteId: 'Q-ok' },
    expected: 'ok',
  },
  {
    title: 'answers a declared failure with its declared words',
    caller: 'manager',
    tool: 'stays__book',
    args: { quoteId: 'Q-expired' },
    expected: { meta: 'dev.wildo/operation_failed', field: 'failure', value: 'quote-expired' },
  },
  {
    title: 'refuses a machine the deny list names',
    caller: 'machine',
    tool: 'stays__cancel',
    args: { bookingId: 'B-1' },
    expected: { meta: 'dev.wildo/policy_denied', field: 'reason', value: 'principal_denied' },
  },
  {
    title: 'lets a person cancel',
    caller: 'member',
    tool: 'stays__cancel',
    args: { bookingId: 'B-1' },
    expected: 'ok',
  },
];

/** What is compared: the whole result as a model and a client see it. */
const comparable = (result: ToolResult) => ({
  isError: result.isError ?? false,
  content: result.content,
  structuredContent: result.structuredContent,
  _meta: result._meta,
});

describe('execute() answers exactly as MCP tools/call does (one table, both paths)', () => {
  it.each(PARITY_CASES)('$title', async ({ caller, tool, args, expected }) => {
    const input = { ...args, organizationId: stack.orgId };
    const overMcp = await callTool(stack.t.api, MCP_PATH, await stack.mcpAuth(caller), tool, input);
    const embedded = await wildo.execute(tool, input, { principal: stack.principals[caller] });
    expect(comparable(embedded.mcp as ToolResult)).toEqual(comparable(overMcp));
    if (expected === 'ok') {
      expect(embedded.isError, embedded.text).toBe(false);
      expect(embedded.structured).toBeDefined();
    } else {
      expect(embedded.isError).toBe(true);
      expect((embedded.meta[expected.meta] as Record<string, unknown>)[expected.field]).toEqual(expected.value);
    }
  });

  it('takes the vendor name and a JSON text of arguments (as OpenAI sends them) for the same call', async () => {
    const tool = wildo.tools.find((t) => t.name === 'stays__details');
    const input = JSON.stringify({ stayId: 'ws-1001', organizationId: stack.orgId });
    const result = await wildo.execute(tool?.vendorName ?? '', input, { principal: stack.principals.member });
    expect(result.isError).toBe(false);
    expect((result.structured as { stay: { name: string } }).stay.name).toBe('Casa Alfama');
  });

  it('refuses an unknown tool and input that is no object before anything is dispatched', async () => {
    const principal = stack.principals.member;
    await expect(wildo.execute('stays__nope', {}, { principal })).rejects.toMatchObject({ code: 'unknown_tool' });
    await expect(wildo.execute('stays__details', [1], { principal })).rejects.toBeInstanceOf(EmbeddedCallError);
    await expect(wildo.execute('stays__details', '{oops', { principal })).rejects.toMatchObject({
      code: 'input_not_object',
    });
  });

  it('runs an application-vouched machine principal through the same policies', async () => {
    const principal = embeddedPrincipal({
      clientId: 'support-bot',
      organizationId: stack.orgId,
      roles: [CORE_ORG_ROLES.ORG_MEMBER],
    });
    const read = await wildo.execute('stays__details', { stayId: 'ws-1001' }, { principal });
    expect(read.isError).toBe(false);
    const cancel = await wildo.execute('stays__cancel', { bookingId: 'B-1' }, { principal });
    expect(cancel.meta['dev.wildo/policy_denied']).toMatchObject({ reason: 'principal_denied' });
  });

  it('verifies an Authorization value as the backend does', async () => {
    const principal = await wildo.authenticate(stack.machineKey);
    expect(principal.kind).toBe('machine');
    await expect(wildo.authenticate('Bearer not-a-token')).rejects.toThrow();
  });
});

describe('tool definitions in each vendor’s request format', () => {
  it('gives the listed tools under names every vendor accepts', () => {
    const names = wildo.tools.map((t) => t.name);
    expect(names).toContain('stays__details');
    expect(names).not.toContain('stays__search-classic');
    for (const tool of wildo.tools) expect(tool.vendorName).toMatch(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/);
    expect(vendorNameOf('a.b')).toBe('a_b');
    expect(vendorNameOf(`x${'y'.repeat(100)}`)).toHaveLength(64);
  });

  it('fits each SDK’s request type, and each SDK sends them as given', async () => {
    const sent: { body: Record<string, unknown> }[] = [];
    const capture = (reply: unknown) =>
      (async (_url: string | URL | Request, init?: RequestInit) => {
        const body = typeof init?.body === 'string' ? init.body : '{}';
        sent.push({ body: JSON.parse(body) as Record<string, unknown> });
        return new Response(JSON.stringify(reply), { headers: { 'content-type': 'application/json' } });
      }) as typeof fetch;
    const messages: Anthropic.Messages.MessageCreateParamsNonStreaming = {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Where can I stay?' }],
      tools: wildo.toolDefinitions('anthropic'),
    };
    const chat: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
      model: 'gpt-5',
      messages: [{ role: 'user', content: 'Where can I stay?' }],
      tools: wildo.toolDefinitions('openai-chat'),
    };
    const responses: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
      model: 'gpt-5',
      input: 'Where can I stay?',
      tools: wildo.toolDefinitions('openai-responses'),
    };
    const gemini: GenerateContentParameters = {
      model: 'gemini-2.5-flash',
      contents: 'Where can I stay?',
      config: { tools: wildo.toolDefinitions('gemini') },
    };
    await new Anthropic({ apiKey: 'k', fetch: capture({ content: [] }), maxRetries: 0 }).messages.create(messages);
    const openai = (reply: unknown) => new OpenAI({ apiKey: 'k', fetch: capture(reply), maxRetries: 0 });
    await openai({ choices: [] }).chat.completions.create(chat);
    await openai({ output: [] }).responses.create(responses);
    expect(sent.map((s) => s.body.tools)).toEqual([messages.tools, chat.tools, responses.tools]);
    const details = wildo.tools.find((t) => t.name === 'stays__details');
    expect(messages.tools?.find((t) => 'name' in t && t.name === details?.vendorName)).toMatchObject({
      input_schema: { type: 'object', required: expect.arrayContaining(['stayId']) },
    });
    // The Gemini SDK takes a base URL rather than a fetch: a local server reads what it sends.
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        sent.push({ body: JSON.parse(body) as Record<string, unknown> });
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ candidates: [] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl } }).models.generateContent(gemini);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(sent[3]?.body.tools).toEqual(gemini.config?.tools);
    const declarations = gemini.config?.tools?.[0] as { functionDeclarations: { name: string }[] };
    expect(declarations.functionDeclarations.map((d) => d.name)).toEqual(wildo.tools.map((t) => t.vendorName));
    expect(VENDOR_FORMATS.map((format) => wildo.toolDefinitions(format).length > 0)).toEqual([true, true, true, true]);
  });
});

describe('the extractor', () => {
  const trips = defineResource({
    type: 'trips',
    displayName: 'Trips',
    primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
    schema: z.object({
      city: z.string(),
      nights: z.number().int(),
      rooms: z.array(z.object({ name: z.string(), sleeps: z.number().int() })),
    }),
    operationsConfiguration: {},
  });

  it('accepts an output that is exactly a record (positive control)', () => {
    const report = extractRecord(trips, { city: 'Lisbon', nights: 3, rooms: [{ name: 'Double', sleeps: 2 }] });
    expect(report).toEqual({
      ok: true,
      value: { city: 'Lisbon', nights: 3, rooms: [{ name: 'Double', sleeps: 2 }] },
      missing: [],
      invalid: [],
      undeclared: [],
    });
  });

  it('reports missing, invalid and undeclared fields by path, never their values', () => {
    const secret = 'passport-X1234567';
    const report = extractRecord(trips, {
      city: 'Lisbon',
      nights: 'three',
      rooms: [
        { name: 'Double', sleeps: 2 },
        { sleeps: 4, passport: secret },
      ],
    });
    expect(report.ok).toBe(false);
    expect(report.value).toBeUndefined();
    expect(report.missing).toEqual(['rooms[1].name']);
    expect(report.invalid).toEqual([{ path: 'nights', expected: 'number' }]);
    expect(report.undeclared).toEqual(['rooms[1].passport']);
    expect(JSON.stringify(report)).not.toContain(secret);
  });
});
