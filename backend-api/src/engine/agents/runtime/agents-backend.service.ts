import { performance } from 'node:perf_hooks';
import {
  CodingAgent_RunTaskInputSchema,
  FlowsActors_Agent_Status,
  ImageProvider_OperationKey,
  LLMProvider_OperationKey,
  type AgentCallTraceEmission,
  type AgentCallUsage,
  type FlowsActors_Agent_Invocation,
  type ImageAgentConfig,
  type LLMAgentConfig,
} from '@wildo/shared-lib';
import { z } from 'zod';
import { FrameworkError } from '../../errors/index.js';
import { parseContract } from '../../resources/index.js';
import type { AgentCallRecorder } from './agent-call-recorder.js';
import { isCodingAgent, type AgentsRegistry, type ResolvedAgent } from '../systems/index.js';
import { admitBudget, type BudgetTenant, type TokenBudgetService } from '../budgets/index.js';
import {
  CODING_AGENT_OPTIONS,
  type CodingAgentArm,
  type CodingAgentInvocationOptions,
  type CodingDispatch,
} from './coding-arm.js';
import { renderSystemPrompt } from './prompt-spec.js';
import { toAgentCallError } from './provider-failure.js';
import { ProviderCallError, type LLMProviderAdapter, type ProviderFinishReason } from '../providers/index.js';

/** Options of one buffered invocation (the third argument of `invokeAgent`). */
export interface InvokeAgentOptions extends CodingAgentInvocationOptions {
  signal?: AbortSignal;
  /** Refuse the call when the initiator's monthly token allowance is used up (default: record only). */
  enforceBudget?: boolean;
}

/** Refuses coding-agent options given to a language or image agent, naming them, before anything runs or is charged. */
function refuseCodingAgentOptions(agentRef: string, options: InvokeAgentOptions): void {
  const asked = CODING_AGENT_OPTIONS.filter((name) => options[name] !== undefined);
  if (asked.length === 0) return;
  throw new FrameworkError(
    'BAD_REQUEST',
    `invokeAgent was given coding-agent options (${asked.join(', ')}), but "${agentRef}" is not a coding agent; remove them or invoke a coding agent.`,
  );
}

/** What a buffered invocation returns: `output` in the operation's shape, and how the call went. */
export interface AgentInvocationResult<TOutput = unknown> {
  agentRef: string;
  providerRef: string;
  /** The concrete vendor model that answered. */
  model: string;
  output: TOutput;
  usage?: AgentCallUsage;
  finishReason?: ProviderFinishReason;
}

/** Whose allowance a call is charged to: the initiator's organization, else the user, else the application. */
export function budgetTenantOfInitiator(initiator: FlowsActors_Agent_Invocation['initiator']): BudgetTenant {
  if (initiator.organizationId) return { kind: 'organization', organizationId: initiator.organizationId };
  if (initiator.userId) return { kind: 'user', userId: initiator.userId };
  return { kind: 'application' };
}

interface CallOutcome {
  output: unknown;
  usage?: AgentCallUsage;
  finishReason?: ProviderFinishReason;
}

/** What the service needs; built by the agents module. */
export interface AgentsBackendServiceDeps {
  registry: AgentsRegistry;
  providers: { get(ref: string): LLMProviderAdapter };
  recorder: AgentCallRecorder;
  budgets: TokenBudgetService;
  now: () => Date;
  /** The coding arm (the coding-agent module); coding agents are refused without it. */
  coding?: CodingAgentArm;
}

/**
 * Invokes registered agents from backend code: the buffered, one-shot path (declared function tools do not
 * run here; conversations with tools go through actor systems). The input is checked against the operation's
 * contract, the call runs on the agent's resolved model through its provider's limiter (never another vendor),
 * every call is traced and its tokens recorded against the initiator's budget.
 *
 * @example
 * const result = await agentsService.invokeAgent({ agentRef, initiator: {}, invocationContext: [], input: { prompt, schema }, output: { object: {} }, executionContext: { callTimestamp }, artifactBindings: [] });
 */
export class AgentsBackendService {
  constructor(private readonly deps: AgentsBackendServiceDeps) {}

  async invokeAgent<TOutput = unknown>(
    invocation: FlowsActors_Agent_Invocation,
    traceContext?: AgentCallTraceEmission['traceContext'],
    options: InvokeAgentOptions = {},
  ): Promise<AgentInvocationResult<TOutput>> {
    const agent = this.deps.registry.agent(invocation.agentRef);
    if (!agent) throw new FrameworkError('NOT_FOUND', `No agent "${invocation.agentRef}" is registered.`);
    if (agent.declaration.status !== FlowsActors_Agent_Status.ACTIVE) {
      throw new FrameworkError('FORBIDDEN', `Agent "${invocation.agentRef}" is not active.`, {
        reason: 'lifecycle_blocked',
      });
    }
    if (isCodingAgent(agent.declaration))
      return this.invokeCodingAgent<TOutput>(agent, invocation, traceContext, options);
    refuseCodingAgentOptions(invocation.agentRef, options);
    const input = parseContract(agent.declaration.operationDefinition.inputSchema, invocation.input) as Record<
      string,
      unknown
    >;
    const tenant = budgetTenantOfInitiator(invocation.initiator);
    if (options.enforceBudget) await admitBudget(this.deps.budgets, tenant, this.deps.now());
    const startedAt = performance.now();
    const report = { agent, startedAt, tenant, ...(traceContext ? { traceContext } : {}) };
    let outcome: CallOutcome;
    try {
      const adapter = this.deps.providers.get(agent.providerRef);
      outcome = await this.call(agent, adapter, input, options.signal);
    } catch (error) {
      const usage = error instanceof StructuredContractError ? error.usage : undefined;
      await this.deps.recorder.record({
        ...report,
        outcome: 'error',
        error,
        input: traceInput(input),
        ...(usage ? { usage } : {}),
      });
      if (error instanceof StructuredContractError) {
        throw new FrameworkError(
          'SERVICE_UNAVAILABLE',
          'The model’s answer did not satisfy the requested schema; try again.',
          { problems: error.problems, retryAfterSeconds: 1 },
        );
      }
      throw toAgentCallError(error);
    }
    await this.deps.recorder.record({
      ...report,
      outcome: 'success',
      input: traceInput(input),
      output: outcome.output,
      ...(outcome.usage ? { usage: outcome.usage } : {}),
      ...(outcome.finishReason ? { finishReason: outcome.finishReason } : {}),
    });
    return resultOf<TOutput>(agent, outcome);
  }

  /** The coding arm: the run goes through the coding-agent service (its own trace, budget and record). */
  private async invokeCodingAgent<TOutput>(
    agent: ResolvedAgent,
    invocation: FlowsActors_Agent_Invocation,
    traceContext: AgentCallTraceEmission['traceContext'] | undefined,
    options: InvokeAgentOptions,
  ): Promise<AgentInvocationResult<TOutput>> {
    parseContract(agent.declaration.operationDefinition.inputSchema, invocation.input);
    const input = parseContract(CodingAgent_RunTaskInputSchema, invocation.input) as CodingDispatch['input'];
    const coding = this.deps.coding;
    if (!coding) throw new FrameworkError('SERVICE_UNAVAILABLE', 'Coding agents are not available in this backend.');
    const result = await coding.dispatch({
      agent: agent as CodingDispatch['agent'],
      invocation,
      input,
      options,
      tenant: budgetTenantOfInitiator(invocation.initiator),
      ...(traceContext ? { traceContext } : {}),
    });
    return resultOf<TOutput>(agent, result);
  }

  private async call(
    agent: ResolvedAgent,
    adapter: LLMProviderAdapter,
    input: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<CallOutcome> {
    const system = renderSystemPrompt(agent.declaration.promptSpec);
    if (agent.operationKey === ImageProvider_OperationKey.GENERATE_IMAGE) {
      const config = agent.config as ImageAgentConfig;
      const result = await required(adapter, 'generateImage').call(adapter, {
        model: agent.vendorModelId,
        prompt: `${system}\n\n${String(input.prompt)}`,
        ...(config.size ? { size: config.size } : {}),
        ...(config.quality ? { quality: config.quality } : {}),
        ...(config.background ? { background: config.background } : {}),
        ...(config.outputFormat ? { outputFormat: config.outputFormat } : {}),
        ...(config.n ? { n: config.n } : {}),
        ...(signal ? { signal } : {}),
      });
      return { output: { images: result.images }, ...(result.usage ? { usage: result.usage } : {}) };
    }
    const config = agent.config as LLMAgentConfig;
    const settings = {
      model: agent.vendorModelId,
      system,
      ...(config.maxOutputTokens !== undefined ? { maxOutputTokens: config.maxOutputTokens } : {}),
      ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
      ...(config.reasoningEffort !== undefined ? { reasoningEffort: config.reasoningEffort } : {}),
      ...(signal ? { signal } : {}),
    };
    if (agent.operationKey === LLMProvider_OperationKey.GENERATE_STRUCTURED) {
      const schema = input.schema as z.ZodType;
      const result = await required(adapter, 'generateStructured').call(adapter, {
        ...settings,
        prompt: String(input.prompt),
        schemaName: 'response',
        jsonSchema: z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
      });
      const parsed = schema.safeParse(result.object);
      if (!parsed.success) throw new StructuredContractError(parsed.error, result.usage);
      return { output: { object: parsed.data }, usage: result.usage, finishReason: result.finishReason };
    }
    const messages = (input.messages as { role: 'user' | 'assistant'; content: string }[]).map((m) => ({
      role: m.role,
      content: m.content,
    }));
    let text = '';
    let usage: AgentCallUsage | undefined;
    let finishReason: ProviderFinishReason | undefined;
    for await (const event of required(adapter, 'streamChat').call(adapter, { ...settings, messages })) {
      if (event.type === 'text_delta') text += event.text;
      else if (event.type === 'finish') ({ usage, finishReason } = event);
    }
    return { output: { message: text }, ...(usage ? { usage } : {}), ...(finishReason ? { finishReason } : {}) };
  }
}

/** What `invokeAgent` answers: the agent, its provider and model, and the call's output, usage and finish reason. */
function resultOf<TOutput>(agent: ResolvedAgent, outcome: CallOutcome): AgentInvocationResult<TOutput> {
  return {
    agentRef: agent.declaration.ref,
    providerRef: agent.providerRef,
    model: agent.vendorModelId,
    output: outcome.output as TOutput,
    ...(outcome.usage ? { usage: outcome.usage } : {}),
    ...(outcome.finishReason ? { finishReason: outcome.finishReason } : {}),
  };
}

/** The answer parsed but broke the caller's contract (the model, not the caller, is at fault). */
class StructuredContractError extends Error {
  override readonly name = 'StructuredContractError';
  readonly problems: { path: string; expected: string }[];
  constructor(
    error: z.ZodError,
    readonly usage: AgentCallUsage,
  ) {
    super('The structured answer did not satisfy the schema.');
    this.problems = error.issues
      .slice(0, 20)
      .map((issue) => ({ path: issue.path.join('.') || '(root)', expected: issue.message }));
  }
}

function required<K extends 'generateImage' | 'generateStructured' | 'streamChat'>(
  adapter: LLMProviderAdapter,
  method: K,
): NonNullable<LLMProviderAdapter[K]> {
  const fn = adapter[method];
  if (!fn)
    throw new ProviderCallError(adapter.ref, 'not_configured', `Provider "${adapter.ref}" does not offer ${method}.`);
  return fn as NonNullable<LLMProviderAdapter[K]>;
}

/** The input as traced: the Zod contract is replaced by its name (a schema object is not content). */
function traceInput(input: Record<string, unknown>): unknown {
  return 'schema' in input ? { ...input, schema: '[zod schema]' } : input;
}
