import {
  CodingAgent_OperationContext_BaseSchema,
  CodingAgent_OperationKey,
  CodingAgent_RunTaskInputSchema,
  CodingAgent_RunTaskOutputSchema,
  FlowsActors_Agent_Skill_Type,
  FlowsActors_Agent_Status,
  ResourceOperationRiskLevel,
  ResourcePrimaryScope,
  type AgentTraceabilityLevel,
  type CatalogProviderOffering,
  type CodingAgentConfig,
  type FlowsActors_Agent,
} from '@wildo/shared-lib';
import { accessControlOf, type AccessRule, type ChatModelOf } from '../systems/index.js';

/** A provider of the application's catalogue that offers coding agents (`CODING_AGENT` over AGENT_CLIENT_PROTOCOL). */
export type CodingProviderRef = CatalogProviderOffering<'CODING_AGENT'>;

/**
 * A coding agent's binding, as the guide writes it: provider, model and execution profile kept together. The
 * profile is required: a coding agent cannot omit the authority and environment its subprocess runs under.
 * Applications alias it (`type ApplicationCodingAgentBinding = CodingAgentBinding`) or extend it.
 */
export interface CodingAgentBinding<TProvider extends CodingProviderRef = CodingProviderRef> {
  ref: string;
  displayName: string;
  providerRef: TProvider;
  /** A key of `providerConfigurations.<providerRef>[AGENT_CLIENT_PROTOCOL].executionProfiles`. */
  executionProfileRef: string;
  /** The model the agent works with (one its provider serves); the agent's own default when omitted. */
  model?: ChatModelOf<TProvider>;
}

/** What {@link defineCodingAgent} takes besides the binding; every field has a default. */
export interface CodingAgentOptions {
  /** What the agent is for (shown in reports); the task itself is the prompt of each run. */
  description?: string;
  /** Who may invoke it; defaults to application-level code only. */
  access?: readonly AccessRule[];
  /** Defaults to HIGH: a coding agent changes files. */
  riskLevel?: ResourceOperationRiskLevel;
  traceability?: AgentTraceabilityLevel;
  status?: FlowsActors_Agent_Status;
}

/**
 * Declares a coding agent from its binding: the coding arm of the agent configuration with the coding-agent
 * operation (`RUN_TASK`, the `CodingAgent_*` schemas). Register it in a module's `flowsActors.agents`; start-up
 * checks the profile and the companion scope against the configuration. The agent's durable instructions live in
 * its workspace (its own instruction files); each run's task is the invocation's prompt.
 *
 * @example
 * export const codingAgent = defineCodingAgent({
 *   ref: 'application-coding.agent', displayName: 'Application Coding Agent',
 *   providerRef: 'anthropic', executionProfileRef: 'claude-code-acp', model: LLM_Model.CLAUDE_OPUS_5,
 * });
 */
export function defineCodingAgent<const TProvider extends CodingProviderRef>(
  binding: CodingAgentBinding<TProvider>,
  options: CodingAgentOptions = {},
): FlowsActors_Agent & { config: CodingAgentConfig } {
  const access = options.access ?? [{ primaryScope: ResourcePrimaryScope.APPLICATION }];
  return {
    ref: binding.ref,
    displayName: binding.displayName,
    status: options.status ?? FlowsActors_Agent_Status.ACTIVE,
    config: {
      providerRef: binding.providerRef,
      operationKey: CodingAgent_OperationKey.RUN_TASK,
      executionProfileRef: binding.executionProfileRef,
      ...(binding.model !== undefined ? { model: binding.model } : {}),
      ...(options.traceability !== undefined ? { traceability: options.traceability } : {}),
      accessControl: accessControlOf(access),
      riskLevel: options.riskLevel ?? ResourceOperationRiskLevel.HIGH,
    },
    operationDefinition: {
      operationKey: CodingAgent_OperationKey.RUN_TASK,
      providerRef: binding.providerRef,
      inputSchema: CodingAgent_RunTaskInputSchema,
      outputSchema: CodingAgent_RunTaskOutputSchema,
      operationContextSchema: CodingAgent_OperationContext_BaseSchema,
    },
    promptSpec: {
      role: options.description ?? `${binding.displayName}: runs repository tasks in a workspace.`,
      skillType: FlowsActors_Agent_Skill_Type.GENERATION,
      instructions: [],
    },
  };
}
