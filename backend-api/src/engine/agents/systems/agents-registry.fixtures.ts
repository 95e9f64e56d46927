// Test fixtures for AgentsRegistry: the generated runtime configuration (and variants of it), and small
// builders for agents, function tools, actor systems and modules.
import {
  CORE_ORG_ROLES,
  Actor_ExecutionMode,
  Actor_Role_Category,
  FlowActorSystem_Kind,
  FlowActorSystem_Status,
  FlowActorSystem_Visibility,
  FlowsActors_Agent_Skill_Type,
  FlowsActors_Agent_Status,
  ImageProvider_GenerateImageInputSchema,
  ImageProvider_GenerateImageOutputSchema,
  ImageProvider_Model,
  ImageProvider_OperationContext_BaseSchema,
  ImageProvider_OperationKey,
  LLMProvider_ChatCompletionInputSchema,
  LLMProvider_ChatCompletionOutputSchema,
  LLMProvider_GenerateStructuredInputSchema,
  LLMProvider_GenerateStructuredOutputSchema,
  LLMProvider_OperationContext_BaseSchema,
  LLMProvider_OperationKey,
  ResourceOperationRiskLevel,
  ResourcePrimaryScope,
  type ActorSystem,
  type FlowActor,
  type FlowsActors_AccessControl,
  type FlowsActors_Agent,
  type FlowsActors_AgentCapabilities,
  type LLM_Model,
  type LLM_Model_Applicability,
  type LLMAgentConfig,
  type LLMProvider_ReasoningEffort,
} from '@wildo/shared-lib';
import { z } from 'zod';
import { readGeneratedRuntime } from '../../../testing/generated-runtime.js';
import { RuntimeConfigurationSchema, type RuntimeConfiguration } from '../../config/index.js';
import {
  defineBackendApplication,
  type BackendApplicationDefinition,
  type BackendDomainModule,
} from '../../bootstrap/backend-domain-module.js';
import type { FlowsActorsContribution } from './flows-actors-module.js';
import type { FunctionTool } from '../tools/function-tool.types.js';

const CREATED_AT = '2026-01-01T00:00:00.000Z';
const ACCESS: readonly FlowsActors_AccessControl[] = [
  { primaryScope: ResourcePrimaryScope.USER, requiresApproval: false },
];

/**
 * The repository's committed runtime configuration (see `readGeneratedRuntime`; `wildo config sync --check`
 * guards its freshness before the suite). In it anthropic serves AI_LLM and openai serves AI_EMBEDDINGS only.
 */
export const loadGeneratedRuntime = readGeneratedRuntime;

/** What a provider declaration adds, as `wildo.saas.config.ts` spells it. */
interface ProviderAddition {
  engineCapabilities?: readonly string[];
  providerCapabilities: readonly string[];
  protocols: readonly string[];
}

/**
 * `runtime` with `addition` merged into the backend declaration of `providerRef`, as `wildo config sync` renders
 * it when the configuration declares more for that provider; checked against the runtime schema.
 */
function withBackendProvider(
  runtime: RuntimeConfiguration,
  providerRef: string,
  addition: ProviderAddition,
): RuntimeConfiguration {
  const next = structuredClone(runtime) as RuntimeConfiguration;
  const providers = next.providers.scopes.backend.providers as Record<
    string,
    { engineCapabilities: string[]; providerCapabilities: string[]; protocols: string[] }
  >;
  const existing = providers[providerRef];
  if (!existing) throw new Error(`fixture: provider "${providerRef}" is not declared in the generated runtime`);
  const merge = (current: readonly string[], extra: readonly string[] = []) => [...new Set([...current, ...extra])];
  existing.engineCapabilities = merge(existing.engineCapabilities, addition.engineCapabilities);
  existing.providerCapabilities = merge(existing.providerCapabilities, addition.providerCapabilities);
  existing.protocols = merge(existing.protocols, addition.protocols);
  return RuntimeConfigurationSchema.parse(next);
}

/** The generated runtime where openai also serves AI_LLM (LLM_CHAT over LLM_PROVIDER), as the stand-in of anthropic. */
export function withOpenAIChat(runtime: RuntimeConfiguration): RuntimeConfiguration {
  const next = withBackendProvider(runtime, 'openai', {
    engineCapabilities: ['AI_LLM'],
    providerCapabilities: ['LLM_CHAT'],
    protocols: ['LLM_PROVIDER'],
  });
  const selection = next.providers.scopes.backend.selection.AI_LLM;
  if (selection && !selection.whenUnavailable.includes('openai')) {
    selection.whenUnavailable = [...selection.whenUnavailable, 'openai'];
    selection.candidates = [...selection.candidates, { provider: 'openai', credentialEnvVar: 'OPENAI_API_KEY' }];
  }
  return RuntimeConfigurationSchema.parse(next);
}

/** The generated runtime where openai also declares IMAGE_GENERATION (over IMAGE_PROVIDER; no engine capability governs it). */
export function withOpenAIImages(runtime: RuntimeConfiguration): RuntimeConfiguration {
  return withBackendProvider(runtime, 'openai', {
    providerCapabilities: ['IMAGE_GENERATION'],
    protocols: ['IMAGE_PROVIDER'],
  });
}

/** The generated runtime with the AI_LLM engine capability switched off. */
export function withLanguageModelsDisabled(runtime: RuntimeConfiguration): RuntimeConfiguration {
  const next = structuredClone(runtime) as RuntimeConfiguration;
  next.engineCapabilities.AI_LLM = { enabled: false };
  return RuntimeConfigurationSchema.parse(next);
}

/** How {@link languageAgent} builds an agent: selection and settings go to `config` only when given. */
export interface LanguageAgentOptions {
  ref: string;
  providerRef?: string;
  operationKey?: LLMProvider_OperationKey;
  model?: LLM_Model;
  modelApplicability?: LLM_Model_Applicability;
  reasoningEffort?: LLMProvider_ReasoningEffort;
  temperature?: number;
  /** What `operationDefinition` declares, when it should differ from `config`. */
  operationDefinition?: { providerRef?: string; operationKey?: LLMProvider_OperationKey };
  capabilities?: FlowsActors_AgentCapabilities;
}

/** A language-model agent (anthropic, CHAT_COMPLETION unless told otherwise); no model selection unless given. */
export function languageAgent(options: LanguageAgentOptions): FlowsActors_Agent {
  const providerRef = options.providerRef ?? 'anthropic';
  const operationKey = options.operationKey ?? LLMProvider_OperationKey.CHAT_COMPLETION;
  const config: LLMAgentConfig = {
    providerRef,
    operationKey,
    accessControl: ACCESS,
    riskLevel: ResourceOperationRiskLevel.LOW,
  };
  if (options.model !== undefined) config.model = options.model;
  if (options.modelApplicability !== undefined) config.modelApplicability = options.modelApplicability;
  if (options.reasoningEffort !== undefined) config.reasoningEffort = options.reasoningEffort;
  if (options.temperature !== undefined) config.temperature = options.temperature;
  const definitionOperation = options.operationDefinition?.operationKey ?? operationKey;
  const structured = definitionOperation === LLMProvider_OperationKey.GENERATE_STRUCTURED;
  const agent: FlowsActors_Agent = {
    ref: options.ref,
    displayName: options.ref,
    status: FlowsActors_Agent_Status.ACTIVE,
    config,
    operationDefinition: {
      providerRef: options.operationDefinition?.providerRef ?? providerRef,
      operationKey: definitionOperation,
      inputSchema: structured ? LLMProvider_GenerateStructuredInputSchema : LLMProvider_ChatCompletionInputSchema,
      outputSchema: structured ? LLMProvider_GenerateStructuredOutputSchema : LLMProvider_ChatCompletionOutputSchema,
      operationContextSchema: LLMProvider_OperationContext_BaseSchema,
    },
    promptSpec: {
      role: 'You help the people of a todo application.',
      skillType: structured ? FlowsActors_Agent_Skill_Type.GENERATION : FlowsActors_Agent_Skill_Type.CHAT,
      instructions: ['Answer from the todo list only.'],
    },
    createdAt: CREATED_AT,
  };
  if (options.capabilities) agent.capabilities = options.capabilities;
  return agent;
}

/** An image agent pinning gpt-image-1.5 (openai unless told otherwise). */
export function imageAgent(ref: string, providerRef = 'openai'): FlowsActors_Agent {
  return {
    ref,
    displayName: ref,
    status: FlowsActors_Agent_Status.ACTIVE,
    config: {
      providerRef,
      operationKey: ImageProvider_OperationKey.GENERATE_IMAGE,
      model: ImageProvider_Model.OPEN_AI_GPT_IMAGE_1_5,
      accessControl: ACCESS,
      riskLevel: ResourceOperationRiskLevel.LOW,
    },
    operationDefinition: {
      providerRef,
      operationKey: ImageProvider_OperationKey.GENERATE_IMAGE,
      inputSchema: ImageProvider_GenerateImageInputSchema,
      outputSchema: ImageProvider_GenerateImageOutputSchema,
      operationContextSchema: ImageProvider_OperationContext_BaseSchema,
    },
    promptSpec: {
      role: 'You illustrate todo lists.',
      skillType: FlowsActors_Agent_Skill_Type.GENERATION,
      instructions: ['Flat, friendly style.'],
    },
    createdAt: CREATED_AT,
  };
}

/** A function tool taking `{ title }` (or the given schema, typed loosely so tests can pass a wrong one). */
export function functionTool(
  functionRef: string,
  inputSchema: unknown = z.object({ title: z.string() }),
): FunctionTool {
  return {
    functionRef,
    description: `Runs ${functionRef}.`,
    inputSchema: inputSchema as z.ZodObject,
    execute: async () => ({ ok: true }),
  };
}

/** An actor of an actor system (AGENTIC unless told otherwise). */
export function actor(
  ref: string,
  agentRef: string | undefined,
  executionMode = Actor_ExecutionMode.AGENTIC,
): FlowActor {
  const value: FlowActor = { ref, displayName: ref, roleCategory: Actor_Role_Category.OPERATOR, executionMode };
  if (agentRef !== undefined) value.agentRef = agentRef;
  return value;
}

/** An active actor system. */
export function actorSystem(ref: string, actors: readonly FlowActor[]): ActorSystem {
  return {
    ref,
    kind: FlowActorSystem_Kind.ACTOR,
    displayName: ref,
    status: FlowActorSystem_Status.ACTIVE,
    visibility: FlowActorSystem_Visibility.FRONTEND,
    config: { accessControl: ACCESS, riskLevel: ResourceOperationRiskLevel.LOW },
    actors,
    createdAt: CREATED_AT,
  };
}

/** An active actor system in an organization, open to every member (its tools' own roles still apply). */
export function organizationActorSystem(ref: string, actors: readonly FlowActor[]): ActorSystem {
  const system = actorSystem(ref, actors);
  return {
    ...system,
    config: {
      accessControl: [
        {
          primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
          requiresApproval: false,
          roles: [CORE_ORG_ROLES.ORG_MEMBER],
        },
      ],
      riskLevel: ResourceOperationRiskLevel.LOW,
    },
  };
}

/** A module contributing only flows and actors. */
export function flowsModule(name: string, flowsActors: FlowsActorsContribution): BackendDomainModule {
  return { name, flowsActors };
}

/** An application of the given modules. */
export function applicationOf(...modules: BackendDomainModule[]): BackendApplicationDefinition {
  return defineBackendApplication({ name: 'agents-registry-test', modules });
}
