import { createHash } from 'node:crypto';
import type Anthropic from '@anthropic-ai/sdk';
import type { FunctionDeclaration, Tool as GeminiTool } from '@google/genai';
import type OpenAI from 'openai';
import type { McpToolAnnotations, McpToolDescriptor } from '../mcp/index.js';

// One governed tool, rendered in each vendor's request format. The vendors accept fewer name characters than MCP
// (no `.`, at most 64), so a tool may carry a vendor name of its own; `execute()` accepts either.

/** The vendor formats tool definitions are given in. */
export const VENDOR_FORMATS = ['anthropic', 'openai-chat', 'openai-responses', 'gemini'] as const;
/** One of {@link VENDOR_FORMATS}. */
export type VendorFormat = (typeof VENDOR_FORMATS)[number];

/** The request type each vendor SDK takes for its tools. */
export interface VendorToolDefinitions {
  anthropic: Anthropic.Messages.Tool[];
  'openai-chat': OpenAI.Chat.Completions.ChatCompletionFunctionTool[];
  'openai-responses': OpenAI.Responses.FunctionTool[];
  gemini: GeminiTool[];
}

/** A governed tool an embedding application offers a model. */
export interface EmbeddedTool {
  /** The tool's MCP name (`<resource>__<operation>`). */
  name: string;
  /** The name vendors see: the MCP name with every character outside `[A-Za-z0-9_-]` made `_`, at most 64 long. */
  vendorName: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: McpToolAnnotations;
}

const VENDOR_NAME_LIMIT = 64;

/** The name a vendor accepts for an MCP tool name: `[A-Za-z0-9_-]`, starting with a letter or `_`, at most 64. */
export function vendorNameOf(name: string): string {
  let safe = name.replace(/[^A-Za-z0-9_-]/g, '_');
  if (!/^[A-Za-z_]/.test(safe)) safe = `_${safe}`;
  if (safe.length <= VENDOR_NAME_LIMIT) return safe;
  // Long names keep a readable prefix and a digest of the whole, so two long names stay apart.
  const digest = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${safe.slice(0, VENDOR_NAME_LIMIT - 9)}_${digest}`;
}

/** The embedded tools of a catalogue's listed descriptors; two tools that would share a vendor name are refused. */
export function embeddedToolsOf(descriptors: readonly McpToolDescriptor[]): EmbeddedTool[] {
  const byVendorName = new Map<string, string>();
  return descriptors.map((descriptor) => {
    const vendorName = vendorNameOf(descriptor.name);
    const taken = byVendorName.get(vendorName);
    if (taken !== undefined)
      throw new Error(
        `Tools "${taken}" and "${descriptor.name}" would both be "${vendorName}" for a model vendor; rename one of the operations.`,
      );
    byVendorName.set(vendorName, descriptor.name);
    return {
      name: descriptor.name,
      vendorName,
      description: descriptor.description,
      inputSchema: descriptor.inputSchema,
      ...(descriptor.outputSchema ? { outputSchema: descriptor.outputSchema } : {}),
      ...(descriptor.annotations ? { annotations: descriptor.annotations } : {}),
    };
  });
}

/** An object JSON Schema with `type: "object"` stated, as Anthropic requires for `input_schema`. */
function objectSchema(schema: Record<string, unknown>): Anthropic.Messages.Tool.InputSchema {
  return { ...schema, type: 'object' };
}

/** The tools in one vendor's request format (not strict: the engine validates the arguments itself). */
export function toolDefinitions<F extends VendorFormat>(
  tools: readonly EmbeddedTool[],
  format: F,
): VendorToolDefinitions[F] {
  const rendered: VendorToolDefinitions = {
    anthropic: tools.map((tool) => ({
      name: tool.vendorName,
      description: tool.description,
      input_schema: objectSchema(tool.inputSchema),
    })),
    'openai-chat': tools.map((tool) => ({
      type: 'function',
      function: { name: tool.vendorName, description: tool.description, parameters: tool.inputSchema, strict: false },
    })),
    'openai-responses': tools.map((tool) => ({
      type: 'function',
      name: tool.vendorName,
      description: tool.description,
      parameters: tool.inputSchema,
      strict: false,
    })),
    gemini:
      tools.length === 0
        ? []
        : [
            {
              functionDeclarations: tools.map((tool): FunctionDeclaration => ({
                name: tool.vendorName,
                description: tool.description,
                parametersJsonSchema: tool.inputSchema,
              })),
            },
          ],
  };
  return rendered[format];
}
