import {
  McpClientCapabilityRequired,
  type BackendDomainModule,
  type McpCustomTool,
  type McpToolResult,
} from '@wildo/backend-api';

/**
 * The conformance fixture module: the tools the MCP conformance suite's server scenarios call by their fixed
 * names (`test_simple_text`, ...), contributed through `BackendDomainModule.mcpTools` so they are served by
 * the engine's own MCP endpoint (auth, catalogue, wire handling), not by a test server.
 */

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** An empty 8 kHz mono WAV. */
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';
const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false };

/** The input schema of `json_schema_2020_12_tool`: `$defs` with an `$anchor`, `allOf`/`anyOf`, `if`/`then`/`else`. */
export const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const text = (value: string): McpToolResult => ({ content: [{ type: 'text', text: value }] });

function tool(
  name: string,
  description: string,
  call: McpCustomTool['call'],
  inputSchema: Record<string, unknown> = NO_ARGUMENTS,
): McpCustomTool {
  return { descriptor: { name, description, inputSchema }, call };
}

function declares(capabilities: unknown, name: string): boolean {
  return typeof capabilities === 'object' && capabilities !== null && name in capabilities;
}

/** The fixture tools, by the names the suite's scenarios expect. */
export const CONFORMANCE_FIXTURE_TOOLS: readonly McpCustomTool[] = [
  tool('test_simple_text', 'Returns simple text.', async () => text('This is a simple text response for testing.')),
  tool('test_image_content', 'Returns an image.', async () => ({
    content: [{ type: 'image', data: PNG, mimeType: 'image/png' }],
  })),
  tool('test_audio_content', 'Returns audio.', async () => ({
    content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }],
  })),
  tool('test_embedded_resource', 'Returns an embedded resource.', async () => ({
    content: [
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ],
  })),
  tool('test_multiple_content_types', 'Returns text, an image and a resource.', async () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: '{"test":"data","value":123}',
        },
      },
    ],
  })),
  tool('test_error_handling', 'Always fails (as a tool error result).', async () => ({
    isError: true,
    content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
  })),
  tool('test_tool_with_progress', 'Reports progress 0, 50 and 100 of 100.', async (_args, context) => {
    await context.progress?.(0, 100);
    await sleep(50);
    await context.progress?.(50, 100);
    await sleep(50);
    await context.progress?.(100, 100);
    return text('Progress tool completed');
  }),
  // The stateless revision has no log channel: this tool never logs, which is what the stateless scenario checks
  // (no notifications/message without a requested log level).
  tool('test_logging_tool', 'Would log only when the client asked for a log level.', async () =>
    text('Logging tool completed without logging'),
  ),
  tool('test_tool_with_logging', 'Sends three log messages while it runs.', async (_args, context) => {
    context.log?.('info', 'Tool execution started');
    await sleep(50);
    context.log?.('info', 'Tool processing data');
    await sleep(50);
    context.log?.('info', 'Tool execution completed');
    return text('Tool with logging completed');
  }),
  tool(
    'test_sampling',
    'Asks the client’s model for a completion of the prompt.',
    async (args, context) => {
      if (!context.createMessage) throw new McpClientCapabilityRequired('sampling');
      const answer = await context.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: String(args.prompt) } }],
        maxTokens: 100,
      });
      const content = answer.content as { text?: unknown } | undefined;
      return text(`LLM response: ${typeof content?.text === 'string' ? content.text : ''}`);
    },
    { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
  ),
  tool(
    'test_elicitation',
    'Asks the client’s person for a user name and an email address.',
    async (args, context) => {
      if (!context.elicit) throw new McpClientCapabilityRequired('elicitation');
      const answer = await context.elicit({
        message: String(args.message),
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      });
      return text(`User response: ${JSON.stringify(answer)}`);
    },
    { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  ),
  tool('test_missing_capability', 'Needs the sampling client capability.', async (_args, context) => {
    if (!declares(context.clientCapabilities, 'sampling')) throw new McpClientCapabilityRequired('sampling');
    return text('The client declared sampling.');
  }),
  // The engine has no input-required (MRTR) results for custom tools: the tool answers with progress and a
  // complete result, never with a request of its own on the response stream.
  tool(
    'test_streaming_elicitation',
    'Streams progress, then completes; it never sends a request to the client.',
    async (_args, context) => {
      await context.progress?.(1, 2);
      await sleep(20);
      await context.progress?.(2, 2);
      return text('Completed without elicitation (input-required results are not supported by this server)');
    },
  ),
  tool(
    'json_schema_2020_12_tool',
    'Tool with JSON Schema 2020-12 features.',
    async () => text('ok'),
    JSON_SCHEMA_2020_12,
  ),
];

/** The fixture module; add it to an application's modules next to the reference application's own. */
export const conformanceFixtureModule: BackendDomainModule = {
  name: 'mcp-conformance-fixtures',
  mcpTools: CONFORMANCE_FIXTURE_TOOLS,
};
