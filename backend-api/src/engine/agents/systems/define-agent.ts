import {
  Actor_ExecutionMode,
  Actor_Role_Category,
  FlowActorSystem_Kind,
  FlowActorSystem_Status,
  FlowActorSystem_Visibility,
  FlowsActors_Agent_Skill_Type,
  FlowsActors_Agent_Status,
  LLMProvider_ChatCompletionInputSchema,
  LLMProvider_ChatCompletionOutputSchema,
  LLMProvider_OperationContext_BaseSchema,
  LLMProvider_OperationKey,
  ResourceOperationRiskLevel,
  type ActorSystem,
  type AgentTraceabilityLevel,
  type CatalogProviderOffering,
  type FlowActor,
  type FlowsActors_AccessControl,
  type FlowsActors_Agent,
  type LLM_Model,
  type LLM_Model_Applicability,
  type LLMAgentConfig,
  type LLMProvider_ReasoningEffort,
  type ResourcePrimaryScope,
  type ResourceScopeRole,
} from '@wildo/shared-lib';
import type { FlowsActorsContribution } from './flows-actors-module.js';
import type { LANGUAGE_MODELS_BY_PROVIDER } from '../providers/index.js';
import type { FunctionTool } from '../tools/index.js';

/** A provider of the application's catalogue (the generated `WildoDiscoveredProviderCatalog`) that offers chat. */
export type ChatProviderRef = CatalogProviderOffering<'LLM_CHAT'>;

type LanguageModels = typeof LANGUAGE_MODELS_BY_PROVIDER;

/** The models an agent of `TProvider` can pin: that provider's language models (any, for a provider the engine has no list of). */
export type ChatModelOf<TProvider extends string> = TProvider extends keyof LanguageModels
  ? LanguageModels[TProvider][number]
  : LLM_Model;

/** Who may use an agent or a system in one scope, with roles typed to that scope. */
export type AccessRule = {
  [S in ResourcePrimaryScope]: { primaryScope: S; roles?: readonly ResourceScopeRole<S>[]; requiresApproval?: boolean };
}[ResourcePrimaryScope];

/** The model: a pinned one the provider serves, or an applicability class the provider resolves at start. */
type ModelChoice<TProvider extends string> =
  | { model: ChatModelOf<TProvider>; modelApplicability?: never }
  | { modelApplicability: LLM_Model_Applicability; model?: never };

/** What {@link defineChatAgent} takes; everything else of the agent is derived. */
export type ChatAgentDefinition<TRef extends string, TProvider extends ChatProviderRef> = ModelChoice<TProvider> & {
  ref: TRef;
  /** Defaults to the ref. */
  displayName?: string;
  provider: TProvider;
  /** The durable prompt (a chat skill); per-call material belongs in the conversation. */
  prompt: { role: string; persona?: string; instructions: readonly string[] };
  /** The function tools the agent may call (registered with it by {@link defineActorSystem}). */
  tools?: readonly FunctionTool[];
  /** External MCP servers the agent may call, by ref. */
  mcpRefs?: readonly string[];
  access: readonly AccessRule[];
  /** Defaults to MEDIUM. */
  riskLevel?: ResourceOperationRiskLevel;
  reasoningEffort?: LLMProvider_ReasoningEffort;
  temperature?: number;
  maxOutputTokens?: number;
  traceability?: AgentTraceabilityLevel;
  status?: FlowsActors_Agent_Status;
};

/** A chat agent: the full declaration, plus its tools (not enumerable) for the system that hosts it. */
export interface ChatAgent<TRef extends string = string> extends FlowsActors_Agent {
  readonly ref: TRef;
  readonly functionTools: readonly FunctionTool[];
}

/** The declaration form of access rules (`requiresApproval` defaults to false). */
export function accessControlOf(rules: readonly AccessRule[]): FlowsActors_AccessControl[] {
  return rules.map((rule) => ({
    primaryScope: rule.primaryScope,
    requiresApproval: rule.requiresApproval ?? false,
    ...(rule.roles ? { roles: rule.roles } : {}),
  }));
}

function chatConfigOf<TProvider extends ChatProviderRef>(
  definition: ChatAgentDefinition<string, TProvider>,
): LLMAgentConfig {
  return {
    providerRef: definition.provider,
    operationKey: LLMProvider_OperationKey.CHAT_COMPLETION,
    ...(definition.model !== undefined
      ? { model: definition.model }
      : { modelApplicability: definition.modelApplicability }),
    ...(definition.reasoningEffort !== undefined ? { reasoningEffort: definition.reasoningEffort } : {}),
    ...(definition.temperature !== undefined ? { temperature: definition.temperature } : {}),
    ...(definition.maxOutputTokens !== undefined ? { maxOutputTokens: definition.maxOutputTokens } : {}),
    ...(definition.traceability !== undefined ? { traceability: definition.traceability } : {}),
    accessControl: accessControlOf(definition.access),
    riskLevel: definition.riskLevel ?? ResourceOperationRiskLevel.MEDIUM,
  };
}

/**
 * Declares a conversational agent (`CHAT_COMPLETION`): its operation definition is derived from the provider, its
 * tool refs from its tools. `provider` is typed from the application's provider catalogue and `model` from that
 * provider's models, so a model of another vendor does not compile.
 *
 * @example
 * export const supportAgent = defineChatAgent({
 *   ref: 'support-desk.chat.agent', provider: 'anthropic', model: LLM_Model.CLAUDE_SONNET_5,
 *   prompt: { role: 'You help members handle support tickets.', instructions: ['Look a ticket up before closing it.'] },
 *   tools: [tickets.tools.read(), tickets.tools.write('close', { requiresHumanApproval: true })],
 *   access: [{ primaryScope: ResourcePrimaryScope.ORGANIZATIONS, roles: [CORE_ORG_ROLES.ORG_MEMBER] }],
 * });
 */
export function defineChatAgent<const TRef extends string, const TProvider extends ChatProviderRef>(
  definition: ChatAgentDefinition<TRef, TProvider>,
): ChatAgent<TRef> {
  const tools = definition.tools ?? [];
  const agent: ChatAgent<TRef> = {
    ref: definition.ref,
    displayName: definition.displayName ?? definition.ref,
    status: definition.status ?? FlowsActors_Agent_Status.ACTIVE,
    config: chatConfigOf(definition),
    operationDefinition: {
      operationKey: LLMProvider_OperationKey.CHAT_COMPLETION,
      providerRef: definition.provider,
      inputSchema: LLMProvider_ChatCompletionInputSchema,
      outputSchema: LLMProvider_ChatCompletionOutputSchema,
      operationContextSchema: LLMProvider_OperationContext_BaseSchema,
    },
    promptSpec: {
      role: definition.prompt.role,
      ...(definition.prompt.persona !== undefined ? { persona: definition.prompt.persona } : {}),
      skillType: FlowsActors_Agent_Skill_Type.CHAT,
      instructions: definition.prompt.instructions,
    },
    capabilities: {
      tools: {
        functionRefs: tools.map((tool) => tool.functionRef),
        ...(definition.mcpRefs ? { mcpRefs: definition.mcpRefs } : {}),
      },
    },
    functionTools: tools,
  };
  // The tools travel with the agent object but are not part of its declaration (reports serialize it).
  Object.defineProperty(agent, 'functionTools', { enumerable: false });
  return agent;
}

/** An actor of a system, when its ref, name or role differ from the agent's defaults. */
export interface SystemActorDefinition {
  agent: ChatAgent;
  /** Defaults to the agent's ref. */
  ref?: string;
  /** Defaults to the agent's display name. */
  displayName?: string;
  /** Defaults to OPERATOR. */
  roleCategory?: Actor_Role_Category;
}

/** What {@link defineActorSystem} takes. */
export interface ActorSystemDefinition<TRef extends string> {
  ref: TRef;
  displayName: string;
  description?: string;
  /** Its conversational agents, each an AGENTIC actor of the system. */
  agents: readonly (ChatAgent | SystemActorDefinition)[];
  /** Who may use the system; defaults to its agents' access when they all declare the same rules. */
  access?: readonly AccessRule[];
  /** Defaults to FRONTEND. */
  visibility?: FlowActorSystem_Visibility;
  /** Defaults to MEDIUM. */
  riskLevel?: ResourceOperationRiskLevel;
  maxToolSteps?: number;
  timeout?: number;
  status?: FlowActorSystem_Status;
}

/**
 * An actor system ready to register: it is a module's `flowsActors` contribution for the system (its agents, their
 * tools, and the factory keyed by the system's ref), plus the ref and the system itself.
 */
export interface ActorSystemHandle<TRef extends string = string> extends Required<FlowsActorsContribution> {
  readonly ref: TRef;
  readonly build: () => ActorSystem;
}

function actorOf(entry: ChatAgent | SystemActorDefinition): { actor: FlowActor; agent: ChatAgent } {
  const definition: SystemActorDefinition = 'agent' in entry ? entry : { agent: entry };
  const { agent } = definition;
  return {
    agent,
    actor: {
      ref: definition.ref ?? agent.ref,
      displayName: definition.displayName ?? agent.displayName,
      roleCategory: definition.roleCategory ?? Actor_Role_Category.OPERATOR,
      executionMode: Actor_ExecutionMode.AGENTIC,
      agentRef: agent.ref,
    },
  };
}

/** The system's access: its own, or the one every agent declares (refused when they differ: the system must say). */
function systemAccessOf(
  definition: ActorSystemDefinition<string>,
  agents: readonly ChatAgent[],
): FlowsActors_AccessControl[] {
  if (definition.access) return accessControlOf(definition.access);
  const [first, ...others] = agents.map((agent) => agent.config.accessControl);
  const same = others.every((rules) => JSON.stringify(rules) === JSON.stringify(first));
  if (!first || !same) {
    throw new Error(
      `actor system "${definition.ref}": its agents declare different access (or it has none); set access on the system`,
    );
  }
  return [...first];
}

/**
 * Declares an actor system over agents given by handle, with its ref written once: the system, its factory map
 * entry and its agents' registrations all derive from it, so the map key cannot differ from the ref.
 *
 * @example
 * export const supportDesk = defineActorSystem({ ref: 'support-desk', displayName: 'Support desk', agents: [supportAgent] });
 * export const supportDeskModule: BackendDomainModule = { name: 'support-desk', resources: [tickets], flowsActors: supportDesk };
 */
export function defineActorSystem<const TRef extends string>(
  definition: ActorSystemDefinition<TRef>,
): ActorSystemHandle<TRef> {
  const members = definition.agents.map(actorOf);
  const agents = [...new Set(members.map((member) => member.agent))];
  const system: ActorSystem = {
    kind: FlowActorSystem_Kind.ACTOR,
    ref: definition.ref,
    displayName: definition.displayName,
    ...(definition.description !== undefined ? { description: definition.description } : {}),
    status: definition.status ?? FlowActorSystem_Status.ACTIVE,
    visibility: definition.visibility ?? FlowActorSystem_Visibility.FRONTEND,
    config: {
      accessControl: systemAccessOf(definition, agents),
      riskLevel: definition.riskLevel ?? ResourceOperationRiskLevel.MEDIUM,
      ...(definition.maxToolSteps !== undefined ? { maxToolSteps: definition.maxToolSteps } : {}),
      ...(definition.timeout !== undefined ? { timeout: definition.timeout } : {}),
    },
    actors: members.map((member) => member.actor),
  };
  const build = (): ActorSystem => system;
  return {
    ref: definition.ref,
    build,
    agents,
    // A tool shared by two agents is registered once; two different tools under one ref are left for start-up to refuse.
    functionTools: [...new Set(agents.flatMap((agent) => agent.functionTools))],
    flowActorSystemsFactoryMap: { [definition.ref]: build },
  };
}
