import { z } from 'zod';
import { FrameworkError, type ClientErrorFields } from '../../errors/index.js';
import { parseContract, refuseUnstorableText } from '../../resources/index.js';
import type { ExternalMcpSession } from '../external-mcp/index.js';
import type { WithheldValue } from '../../governance/index.js';
import type { ProviderToolSpec } from '../providers/index.js';
import type {
  FunctionTool,
  FunctionToolExecutionContext,
  FunctionToolResourceOperation,
} from './function-tool.types.js';

/** What a tool call produced, as the model and the browser see it. */
export type ToolOutcome =
  | {
      ok: true;
      result: unknown;
      /** Where projection withheld values from what the call read, and why (as MCP's `_meta` and REST report it). */
      withheld?: readonly WithheldValue[];
    }
  | {
      ok: false;
      error: { code: string; message: string; content?: unknown } & ClientErrorFields;
    };

/** One tool offered to the model during a turn: a registered function tool or a discovered external one. */
export interface TurnTool {
  /** The name the vendor sees (`[A-Za-z0-9_-]{1,64}`; function refs contain dots, which vendors refuse). */
  providerName: string;
  /** The name people see: the function ref, or `mcp:<server>/<tool>`. Approvals are bound to it. */
  functionRef: string;
  description: string;
  inputSchema: Record<string, unknown>;
  requiresHumanApproval: boolean;
  allowArgumentModification: boolean;
  /** Declared read-only by its registration (external tools never are: their hints are the server's word). */
  readOnly: boolean;
  /** The resource operation it dispatches, when it is a resource tool (an operation that declares approval gates it). */
  resourceOperation?: FunctionToolResourceOperation;
  /** Checks the model's (or a person's) arguments against the tool's contract; throws VALIDATION_FAILED. */
  validate(args: unknown): Record<string, unknown>;
  /** Runs the call. Thrown errors are turned into refusals by the caller. */
  execute(args: Record<string, unknown>, ctx: FunctionToolExecutionContext): Promise<ToolOutcome>;
}

/** The tools of one turn, addressable by the vendor-facing name and by function ref. */
export class TurnToolSet {
  private readonly byProviderName = new Map<string, TurnTool>();
  private readonly byRef = new Map<string, TurnTool>();

  constructor(tools: readonly TurnTool[]) {
    for (const tool of tools) {
      this.byProviderName.set(tool.providerName, tool);
      this.byRef.set(tool.functionRef, tool);
    }
  }

  /** Tool specs for the provider request. */
  specs(): ProviderToolSpec[] {
    return [...this.byProviderName.values()].map((tool) => ({
      name: tool.providerName,
      description: tool.description,
      inputSchema: tool.inputSchema,
    }));
  }

  byName(providerName: string): TurnTool | undefined {
    return this.byProviderName.get(providerName);
  }

  byFunctionRef(functionRef: string): TurnTool | undefined {
    return this.byRef.get(functionRef);
  }

  get size(): number {
    return this.byProviderName.size;
  }
}

/** A vendor-safe, unique name for a tool. */
function providerSafeName(name: string, taken: Set<string>): string {
  const base = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60) || 'tool';
  let candidate = base;
  for (let i = 2; taken.has(candidate); i++) candidate = `${base.slice(0, 60 - String(i).length - 1)}_${i}`;
  taken.add(candidate);
  return candidate;
}

/** Unknown fields are refused, not dropped: the contract the model sees is the one enforced. */
function strictContract(schema: z.ZodObject): z.ZodObject {
  return schema.strict();
}

function functionTurnTool(tool: FunctionTool, gateAll: boolean, taken: Set<string>): TurnTool {
  const contract = strictContract(tool.inputSchema);
  return {
    providerName: providerSafeName(tool.functionRef, taken),
    functionRef: tool.functionRef,
    description: tool.description,
    inputSchema: z.toJSONSchema(contract, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
    requiresHumanApproval: gateAll || tool.requiresHumanApproval === true,
    allowArgumentModification: tool.allowArgumentModification ?? true,
    readOnly: tool.readOnly === true,
    ...(tool.resourceOperation ? { resourceOperation: tool.resourceOperation } : {}),
    validate: (args) => parseContract(contract, args) as Record<string, unknown>,
    execute: async (args, ctx) => ({ ok: true, result: await tool.execute(args, ctx) }),
  };
}

function externalTurnTool(session: ExternalMcpSession, gate: boolean, taken: Set<string>): TurnTool[] {
  return session.tools.map((tool) => ({
    providerName: providerSafeName(`mcp_${session.serverRef}_${tool.name}`, taken),
    functionRef: `mcp:${session.serverRef}/${tool.name}`,
    description: tool.description,
    inputSchema: tool.inputSchema,
    requiresHumanApproval: gate,
    allowArgumentModification: true,
    readOnly: false,
    // The external server validates against its own schema; here only the shape of a call is checked, and that
    // its text can be stored (the arguments are kept with the conversation and any approval request).
    validate(args) {
      if (args === null || typeof args !== 'object' || Array.isArray(args)) {
        throw new FrameworkError('VALIDATION_FAILED', 'Tool arguments must be an object.', {
          reason: 'input_invalid',
          problems: [{ path: '(root)', expected: 'an object' }],
        });
      }
      refuseUnstorableText(args);
      return args as Record<string, unknown>;
    },
    async execute(args, ctx) {
      const result = await session.call(tool.name, args, ctx.signal);
      // The server's own error text is for the model: it was configured by the application, like its results.
      return result.isError
        ? {
            ok: false,
            error: { code: 'TOOL_ERROR', message: 'The external tool reported an error.', content: result.content },
          }
        : { ok: true, result: result.content };
    },
  }));
}

/** Options of {@link buildTurnTools}. */
export interface TurnToolsSource {
  functionTools: readonly FunctionTool[];
  externalSessions: readonly ExternalMcpSession[];
  /** Servers whose every call is gated. */
  gatedServers: ReadonlySet<string>;
  /** The system's access entry demands approval: every call is gated. */
  gateAll: boolean;
}

/** The tools an agent may call during one turn: exactly those its declaration names. */
export function buildTurnTools(source: TurnToolsSource): TurnToolSet {
  const taken = new Set<string>();
  return new TurnToolSet([
    ...source.functionTools.map((tool) => functionTurnTool(tool, source.gateAll, taken)),
    ...source.externalSessions.flatMap((session) =>
      externalTurnTool(session, source.gateAll || source.gatedServers.has(session.serverRef), taken),
    ),
  ]);
}
