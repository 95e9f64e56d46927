import type { z } from 'zod';
import type { ResourceOperationRiskLevel } from '../models/resource-operation.js';
import type { ResourcePrimaryScope } from '../models/resource-scope.js';
import type {
  Actor_ExecutionMode,
  Actor_Role_Category,
  AgentTraceabilityLevel,
  FlowActorSystem_Kind,
  FlowActorSystem_Status,
  FlowActorSystem_Visibility,
  FlowsActors_Agent_Skill_Type,
  FlowsActors_Agent_Status,
  FlowsActors_IO_PartKind,
  ImageProvider_Background,
  ImageProvider_Model,
  ImageProvider_OperationKey,
  ImageProvider_OutputFormat,
  ImageProvider_Quality,
  ImageProvider_Size,
  LLM_Model,
  LLM_Model_Applicability,
  LLMProvider_OperationKey,
  LLMProvider_ReasoningEffort,
} from './agents.enums.js';
import type { CodingAgent_OperationKey } from './coding-agent.schema.js';

/** Who may use an agent or system, per scope. */
export interface FlowsActors_AccessControl {
  primaryScope: ResourcePrimaryScope;
  requiresApproval: boolean;
  roles?: readonly string[];
}

/** The operation an agent's calls perform, tied to its provider (must agree with `config`). */
export interface LLMProvider_OperationDefinitionBase {
  operationKey: LLMProvider_OperationKey;
  providerRef: string;
  inputSchema: z.ZodType;
  outputSchema: z.ZodType;
  operationContextSchema: z.ZodType;
}

/** The image operation an image agent performs. */
export interface ImageProvider_OperationDefinitionBase {
  operationKey: ImageProvider_OperationKey;
  providerRef: string;
  inputSchema: z.ZodType;
  outputSchema: z.ZodType;
  operationContextSchema: z.ZodType;
}

/** The operation a coding agent performs, tied to its provider (must agree with `config`). */
export interface CodingAgent_OperationDefinitionBase {
  operationKey: CodingAgent_OperationKey;
  providerRef: string;
  inputSchema: z.ZodType;
  outputSchema: z.ZodType;
  operationContextSchema: z.ZodType;
}

interface AgentConfigBase {
  providerRef: string;
  accessControl: readonly FlowsActors_AccessControl[];
  riskLevel: ResourceOperationRiskLevel;
  /** How much the structured logger records of this agent's calls (default METADATA). */
  traceability?: AgentTraceabilityLevel;
}

/** A language-model agent: exactly one of `model` (pinned) or `modelApplicability` (a class resolved at registration). */
export interface LLMAgentConfig extends AgentConfigBase {
  operationKey: LLMProvider_OperationKey;
  model?: LLM_Model;
  modelApplicability?: LLM_Model_Applicability;
  reasoningEffort?: LLMProvider_ReasoningEffort;
  temperature?: number;
  maxOutputTokens?: number;
}

/** An image agent: its model and image settings (no language-model sampling). */
export interface ImageAgentConfig extends AgentConfigBase {
  operationKey: ImageProvider_OperationKey;
  model: ImageProvider_Model;
  size?: ImageProvider_Size;
  quality?: ImageProvider_Quality;
  background?: ImageProvider_Background;
  outputFormat?: ImageProvider_OutputFormat;
  n?: number;
}

/**
 * A coding agent: a provider's agent run as a subprocess over the Agent Client Protocol, under the execution profile
 * `providerConfigurations.<providerRef>[AGENT_CLIENT_PROTOCOL].executionProfiles[executionProfileRef]`.
 */
export interface CodingAgentConfig extends AgentConfigBase {
  operationKey: CodingAgent_OperationKey;
  /** Required: the authority and environment the subprocess runs under (a coding agent cannot omit them). */
  executionProfileRef: string;
  /** The model the agent works with; the agent's own default when omitted. */
  model?: LLM_Model;
}

/** The durable prompt of an agent; per-call material belongs in the invocation input. */
export interface FlowsActors_PromptSpec {
  role: string;
  persona?: string;
  skillType: FlowsActors_Agent_Skill_Type;
  instructions: readonly string[];
}

/** Tools an agent may call: registered function tools by ref, external MCP servers by ref. */
export interface FlowsActors_AgentCapabilities {
  tools?: { functionRefs?: readonly string[]; mcpRefs?: readonly string[] };
}

/** An agent: a model invocation with a structured prompt, registered through a module's `flowsActors.agents`. */
export interface FlowsActors_Agent {
  ref: string;
  displayName: string;
  status: FlowsActors_Agent_Status;
  config: LLMAgentConfig | ImageAgentConfig | CodingAgentConfig;
  operationDefinition:
    | LLMProvider_OperationDefinitionBase
    | ImageProvider_OperationDefinitionBase
    | CodingAgent_OperationDefinitionBase;
  promptSpec: FlowsActors_PromptSpec;
  capabilities?: FlowsActors_AgentCapabilities;
  inputModalities?: readonly FlowsActors_IO_PartKind[];
  outputModality?: FlowsActors_IO_PartKind;
  /** When the declaration was written (informational; nothing reads it). */
  createdAt?: string;
}

/** One call of `AgentsBackendService.invokeAgent`. */
export interface FlowsActors_Agent_Invocation<
  TInput extends z.ZodType = z.ZodType,
  TOutput extends z.ZodType = z.ZodType,
  TContext extends z.ZodType = z.ZodType,
> {
  agentRef: string;
  initiator: { userId?: string; organizationId?: string };
  invocationContext: readonly unknown[];
  input: z.input<TInput>;
  /** The output's shape, as the caller expects it (an empty skeleton). */
  output: Partial<z.output<TOutput>>;
  executionContext: z.input<TContext>;
  artifactBindings: readonly unknown[];
}

/** An actor of an actor system. */
export interface FlowActor {
  ref: string;
  displayName: string;
  roleCategory: Actor_Role_Category;
  executionMode: Actor_ExecutionMode;
  /** The conversational agent of an AGENTIC actor. */
  agentRef?: string;
}

interface FlowActorSystemBase {
  ref: string;
  displayName: string;
  description?: string;
  status: FlowActorSystem_Status;
  visibility: FlowActorSystem_Visibility;
  config: {
    timeout?: number;
    accessControl: readonly FlowsActors_AccessControl[];
    riskLevel: ResourceOperationRiskLevel;
    maxToolSteps?: number;
  };
  /** When the declaration was written (informational; nothing reads it). */
  createdAt?: string;
}

/** A system of actors (an in-app assistant). */
export interface ActorSystem extends FlowActorSystemBase {
  kind: FlowActorSystem_Kind.ACTOR;
  actors: readonly FlowActor[];
}

/** A flow (graph) system: modeled, not executed by this runtime. */
export interface FlowSystem extends FlowActorSystemBase {
  kind: FlowActorSystem_Kind.FLOW;
  graph: { nodes: readonly { id: string; actorRef?: string }[]; edges: readonly { from: string; to: string }[] };
}

/** Either kind of system, discriminated by `kind`. */
export type FlowActorSystem = ActorSystem | FlowSystem;

/** How a module registers its systems: a factory per ref. */
export type FlowActorSystem_InitializationFactoryMap = Readonly<Record<string, () => FlowActorSystem>>;

/** Token counts of one model call. */
export interface AgentCallUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/** What every model call reports to the trace sinks. */
export interface AgentCallTraceEmission {
  agentRef: string;
  providerRef: string;
  model: string;
  operationKey: string;
  outcome: 'success' | 'error';
  attempt?: number;
  context?: {
    usage?: AgentCallUsage;
    executionTime?: number;
    finishReason?: string;
    embeddingDims?: number;
    embeddingCount?: number;
  };
  error?: { name: string; message: string };
  /** Content: given to sinks that may capture it (logger at DEBUG_VERBOSE, PostHog with captureContent). */
  input?: unknown;
  output?: unknown;
  traceability: AgentTraceabilityLevel;
  /** Correlation of one run (conversation, task, request). */
  traceContext?: { traceId?: string; attributes?: Record<string, string | number | boolean> };
  timestamp: string;
}
