import {
  Actor_ExecutionMode,
  type CodingAgent_OperationKey,
  type CodingAgentConfig,
  EngineCapability,
  FlowActorSystem_Kind,
  ImageProvider_OperationKey,
  LLMProvider_OperationKey,
  type FlowActorSystem,
  type FlowsActors_Agent,
  type ImageAgentConfig,
  type LLMAgentConfig,
} from '@wildo/shared-lib';
import { z } from 'zod';
import type { FlowsActorsApplication } from './flows-actors-module.js';
import { SYNC_COMMAND, type RuntimeConfiguration } from '../../config/index.js';
import { DeclarationValidationError, type DeclarationProblem } from '../../resources/index.js';
import { defOf } from '../../resources/schema/index.js';
import type { ModelRefusalReason } from '../providers/index.js';
import { isCodingAgent, registerCodingAgent } from './coding-agents.js';
import { NO_DECLARED_RESOURCES, toolTargetProblem, type DeclaredResources } from './tool-target-validation.js';
import type { FunctionTool } from '../tools/index.js';

/** What registration asks an {@link AgentModelResolver} for: one agent's model selection and settings. */
export interface AgentModelRequest {
  /** A pinned model (exactly one of `model` / `modelApplicability` for language agents). */
  model?: string;
  /** An applicability class the provider resolves to one of its models. */
  modelApplicability?: string;
  operationKey: string;
  reasoningEffort?: string;
  temperature?: number;
}

/**
 * A resolver's answer: the concrete model (`model`, the framework's id; `vendorModelId`, the id the vendor SDK
 * receives), or a message naming what is wrong and the fix. A resolver never substitutes another model.
 */
export type AgentModelResolution =
  | { ok: true; model: string; vendorModelId: string }
  | {
      ok: false;
      message: string;
      /** `provider_unknown`: the framework has no adapter (and no models) for this provider; the message names those it has. */
      reason?: ModelRefusalReason;
    };

/** Resolves an agent's model (pinned or by applicability class) for its provider, or says why it cannot. */
export type AgentModelResolver = (providerRef: string, request: AgentModelRequest) => AgentModelResolution;

/** What {@link AgentsRegistry} checks declarations against besides the runtime configuration. */
export interface AgentsRegistryOptions {
  /** Refs of the external MCP servers passed to `createWildoBackend({ externalMcpServers })`. */
  externalMcpServerRefs?: readonly string[];
  /** The application's compiled resources, which tools over a resource operation must name (default: none). */
  resources?: DeclaredResources;
}

/** An agent after registration: its declaration and the configuration its calls receive. */
export interface ResolvedAgent {
  declaration: FlowsActors_Agent;
  providerRef: string;
  operationKey: LLMProvider_OperationKey | ImageProvider_OperationKey | CodingAgent_OperationKey;
  /** The concrete model the calls use, as the framework names it (an applicability class is resolved once, here). */
  model: string;
  /** The id the vendor SDK receives: pass it as `model` to the provider adapter. */
  vendorModelId: string;
  config: LLMAgentConfig | ImageAgentConfig | CodingAgentConfig;
}

const isImage = (agent: FlowsActors_Agent) => agent.config.operationKey === ImageProvider_OperationKey.GENERATE_IMAGE;
const quoteList = (values: readonly string[]): string => values.map((value) => `"${value}"`).join(', ');

/**
 * Why the runtime scope cannot call this provider for this kind of operation (undefined when it can): language
 * agents need the provider declared in the backend scope serving AI_LLM with that capability enabled; image
 * agents need it declared with the IMAGE_GENERATION provider capability.
 */
function providerProblem(
  runtime: RuntimeConfiguration | undefined,
  providerRef: string,
  image: boolean,
): string | undefined {
  if (!runtime)
    return `no runtime configuration is loaded, so no provider is enabled; start the backend with the generated runtime configuration (run ${SYNC_COMMAND})`;
  const serving = image
    ? 'the IMAGE_GENERATION provider capability'
    : `the ${EngineCapability.AI_LLM} engine capability`;
  const provider = runtime.providers.scopes.backend.providers[providerRef];
  if (!provider) {
    return `provider "${providerRef}" is not enabled in the backend runtime scope; declare it in wildo.saas.config.ts (providers.scopes.backend.providers.${providerRef}, with ${serving}) and run ${SYNC_COMMAND}`;
  }
  if (image) {
    const capabilities = provider.providerCapabilities as readonly string[];
    if (capabilities.includes('IMAGE_GENERATION')) return undefined;
    return (
      `provider "${providerRef}" does not serve IMAGE_GENERATION in the backend runtime scope (its providerCapabilities: ${capabilities.join(', ') || 'none'}); ` +
      `add IMAGE_GENERATION (protocol IMAGE_PROVIDER) to it in wildo.saas.config.ts and run ${SYNC_COMMAND}, or use a provider that serves images`
    );
  }
  const engineCapabilities = provider.engineCapabilities as readonly string[];
  if (!engineCapabilities.includes(EngineCapability.AI_LLM)) {
    return (
      `provider "${providerRef}" does not serve ${EngineCapability.AI_LLM} in the backend runtime scope (its engineCapabilities: ${engineCapabilities.join(', ') || 'none'}); ` +
      `add ${EngineCapability.AI_LLM} (provider capability LLM_CHAT, protocol LLM_PROVIDER) to it in wildo.saas.config.ts and run ${SYNC_COMMAND}`
    );
  }
  if (runtime.engineCapabilities[EngineCapability.AI_LLM]?.enabled !== true) {
    return `engine capability ${EngineCapability.AI_LLM} is disabled; set engineCapabilities.${EngineCapability.AI_LLM}.enabled to true in wildo.saas.config.ts and run ${SYNC_COMMAND}`;
  }
  return undefined;
}

/** Why `schema` cannot be a tool's input (undefined when it is a Zod object). */
function inputSchemaProblem(schema: unknown): string | undefined {
  if (schema instanceof z.ZodObject) return undefined;
  const kind = schema instanceof z.ZodType ? `a Zod ${defOf(schema).type} schema` : 'not a Zod schema';
  return `is ${kind}; declare it with z.object({ ... }): a tool's arguments are one object`;
}

/** What an agent asks its provider's model resolver for: its operation, model selection and settings. */
function modelRequestOf(agent: FlowsActors_Agent): AgentModelRequest {
  const { config } = agent;
  const request: AgentModelRequest = { operationKey: config.operationKey };
  if (config.model !== undefined) request.model = config.model;
  if (isImage(agent)) return request;
  const llm = config as LLMAgentConfig;
  if (llm.modelApplicability !== undefined) request.modelApplicability = llm.modelApplicability;
  if (llm.reasoningEffort !== undefined) request.reasoningEffort = llm.reasoningEffort;
  if (llm.temperature !== undefined) request.temperature = llm.temperature;
  return request;
}

interface Registered<T> {
  value: T;
  module: string;
}

/**
 * Every agent, function tool and system of the application's modules, validated at start. Registration refuses,
 * naming the agent (or tool, or system) and the fix: a provider or operation mismatch between `config` and
 * `operationDefinition`, not exactly one of `model`/`modelApplicability`, a model or class the provider cannot
 * serve, reasoning or sampling settings the resolved model does not support, an unregistered function ref, an
 * unconfigured external MCP server, a provider not enabled in the runtime scope (or, when the framework has no adapter
 * for it, only that), a ref registered twice, a tool without a ref or an object input schema, a tool over a resource
 * operation that cannot run (see {@link toolTargetProblem}), a factory-map key that differs from its system's ref,
 * an actor system whose AGENTIC actor does not name a registered CHAT_COMPLETION agent. A declaration already refused
 * causes no further line where it is named (an agent naming a refused tool, a tool over a refused resource).
 *
 * @example
 * const registry = new AgentsRegistry(application, runtime, catalogueModelResolver(), { externalMcpServerRefs: ['docs'] });
 * registry.agent('triage')?.vendorModelId; // the id the provider adapter is called with
 */
export class AgentsRegistry {
  private readonly agents = new Map<string, ResolvedAgent>();
  private readonly tools = new Map<string, FunctionTool>();
  private readonly systems = new Map<string, FlowActorSystem>();

  constructor(
    application: FlowsActorsApplication,
    runtime: RuntimeConfiguration | undefined,
    resolveModel: AgentModelResolver,
    options: AgentsRegistryOptions = {},
  ) {
    const problems: DeclarationProblem[] = [];
    // Tools refused here are named by agents too: those agents add no second line for them.
    const declaredTools = this.registerTools(application, options.resources ?? NO_DECLARED_RESOURCES, problems);
    const systems = this.collectSystems(application, problems);

    const declaredAgents = new Map<string, Registered<FlowsActors_Agent>>();
    const mcpServers = new Set(options.externalMcpServerRefs ?? []);
    for (const module of application.modules) {
      for (const agent of module.flowsActors?.agents ?? []) {
        const label = `agent "${agent.ref}" (module "${module.name}")`;
        const report = (path: string, message: string) => problems.push({ declaration: label, path, message });
        const first = declaredAgents.get(agent.ref);
        if (first) {
          report(
            'ref',
            `registered twice (first by module "${first.module}"); each ref names one agent, rename one of them`,
          );
          continue;
        }
        declaredAgents.set(agent.ref, { value: agent, module: module.name });
        const resolved = this.resolve(agent, runtime, resolveModel, { mcpServers, declaredTools }, report);
        if (resolved) this.agents.set(agent.ref, resolved);
      }
    }

    for (const [ref, { value: system, module }] of systems) {
      const systemProblems = this.validateSystem(system, declaredAgents);
      problems.push(
        ...systemProblems.map(({ path, message }) => ({
          declaration: `system "${ref}" (module "${module}")`,
          path,
          message,
        })),
      );
      if (systemProblems.length === 0) this.systems.set(ref, system);
    }
    if (problems.length > 0) throw new DeclarationValidationError(problems);
  }

  /** Registers every valid function tool; returns the refs declared (valid or not) so agents naming a refused one add no line. */
  private registerTools(
    application: FlowsActorsApplication,
    resources: DeclaredResources,
    problems: DeclarationProblem[],
  ): ReadonlySet<string> {
    const toolModules = new Map<string, string>();
    for (const module of application.modules) {
      (module.flowsActors?.functionTools ?? []).forEach((tool, i) => {
        const ref = typeof tool.functionRef === 'string' ? tool.functionRef.trim() : '';
        const label =
          ref === ''
            ? `function tool #${i} (module "${module.name}")`
            : `function tool "${tool.functionRef}" (module "${module.name}")`;
        const found: Omit<DeclarationProblem, 'declaration'>[] = [];
        if (ref === '') {
          found.push({
            path: 'functionRef',
            message: 'is empty; give the tool a functionRef (the name agents list in capabilities.tools.functionRefs)',
          });
        } else if (toolModules.has(tool.functionRef)) {
          found.push({
            path: 'functionRef',
            message: `registered twice (first by module "${toolModules.get(tool.functionRef)}"); each ref names one tool, rename one of them`,
          });
        }
        const schemaProblem = inputSchemaProblem(tool.inputSchema);
        if (schemaProblem) found.push({ path: 'inputSchema', message: schemaProblem });
        const targetProblem = toolTargetProblem(tool, resources);
        if (targetProblem) found.push(targetProblem);
        // A target the resource's own refusal already covers: the tool is not registered, and says nothing more.
        const silenced =
          found.length === 0 &&
          tool.resourceOperation !== undefined &&
          !resources.resources.has(tool.resourceOperation.resourceType);
        problems.push(...found.map((problem) => ({ declaration: label, ...problem })));
        if (ref !== '' && !toolModules.has(tool.functionRef)) toolModules.set(tool.functionRef, module.name);
        if (found.length === 0 && !silenced) this.tools.set(tool.functionRef, tool);
      });
    }
    return new Set(toolModules.keys());
  }

  /** The actor systems of every module by factory-map key; a key registered twice, or differing from the system's ref, is refused. */
  private collectSystems(
    application: FlowsActorsApplication,
    problems: DeclarationProblem[],
  ): Map<string, Registered<FlowActorSystem>> {
    const systems = new Map<string, Registered<FlowActorSystem>>();
    for (const module of application.modules) {
      for (const [key, factory] of Object.entries(module.flowsActors?.flowActorSystemsFactoryMap ?? {})) {
        const first = systems.get(key);
        if (first) {
          problems.push({
            declaration: `system "${key}" (module "${module.name}")`,
            path: 'ref',
            message: `registered twice (first by module "${first.module}"); each ref names one system, rename one of them`,
          });
          continue;
        }
        const system = factory();
        if (system.ref !== key) {
          // The route would use the key and the events the ref: one name must serve both.
          problems.push({
            declaration: `system "${system.ref}" (module "${module.name}")`,
            path: `flowActorSystemsFactoryMap["${key}"]`,
            message: `the key differs from the system's ref "${system.ref}"; key the factory map by the ref ({ [system.ref]: factory })`,
          });
          continue;
        }
        systems.set(key, { value: system, module: module.name });
      }
    }
    return systems;
  }

  /** A registered agent; undefined when none has this ref. */
  agent(ref: string): ResolvedAgent | undefined {
    return this.agents.get(ref);
  }

  /** Every registered agent, in declaration order. */
  listAgents(): ResolvedAgent[] {
    return [...this.agents.values()];
  }

  /** A registered function tool. */
  tool(ref: string): FunctionTool | undefined {
    return this.tools.get(ref);
  }

  /** Every registered function tool, in registration order. */
  listTools(): FunctionTool[] {
    return [...this.tools.values()];
  }

  /** A registered system. */
  system(ref: string): FlowActorSystem | undefined {
    return this.systems.get(ref);
  }

  /** Every registered system. */
  listSystems(): FlowActorSystem[] {
    return [...this.systems.values()];
  }

  private resolve(
    agent: FlowsActors_Agent,
    runtime: RuntimeConfiguration | undefined,
    resolveModel: AgentModelResolver,
    known: { mcpServers: ReadonlySet<string>; declaredTools: ReadonlySet<string> },
    report: (path: string, message: string) => void,
  ): ResolvedAgent | undefined {
    const { config, operationDefinition } = agent;
    const image = isImage(agent);
    let ok = true;
    // Whether the model can be resolved at all (a failed resolution then adds its own problem).
    let resolvable = true;
    if (config.providerRef !== operationDefinition.providerRef) {
      report(
        'operationDefinition.providerRef',
        `"${operationDefinition.providerRef}" differs from config.providerRef "${config.providerRef}"; name the same provider in both`,
      );
      resolvable = false;
    }
    if (config.operationKey !== operationDefinition.operationKey) {
      report(
        'operationDefinition.operationKey',
        `"${operationDefinition.operationKey}" differs from config.operationKey "${config.operationKey}"; declare the same operation in both`,
      );
      resolvable = false;
    }
    if (isCodingAgent(agent)) {
      const coding = resolvable ? registerCodingAgent(agent, runtime, resolveModel, report) : undefined;
      return (
        coding && {
          declaration: agent,
          providerRef: config.providerRef,
          operationKey: config.operationKey,
          config,
          ...coding,
        }
      );
    }
    const llm = config as LLMAgentConfig;
    if (image) {
      if (config.model === undefined) {
        report('config.model', 'an image agent pins its model; set model to an image model the provider serves');
        resolvable = false;
      }
    } else if ((llm.model === undefined) === (llm.modelApplicability === undefined)) {
      report(
        'config',
        'author exactly one of model (a pinned model) or modelApplicability (a class the provider resolves)',
      );
      resolvable = false;
    }
    const resolution = resolvable ? resolveModel(config.providerRef, modelRequestOf(agent)) : undefined;
    // A provider the framework has no adapter for has one fix (another provider): enabling it in the config is not one.
    const noAdapter = resolution?.ok === false && resolution.reason === 'provider_unknown';
    const notEnabled = noAdapter ? undefined : providerProblem(runtime, config.providerRef, image);
    if (notEnabled) {
      report('config.providerRef', notEnabled);
      ok = false;
    }
    for (const [i, ref] of (agent.capabilities?.tools?.functionRefs ?? []).entries()) {
      if (this.tools.has(ref)) continue;
      ok = false;
      // A declared tool that was refused has its own line already.
      if (!known.declaredTools.has(ref)) {
        report(
          `capabilities.tools.functionRefs[${i}]`,
          `no function tool "${ref}" is registered; add it to a module's flowsActors.functionTools`,
        );
      }
    }
    for (const [i, ref] of (agent.capabilities?.tools?.mcpRefs ?? []).entries()) {
      if (!known.mcpServers.has(ref)) {
        const configured = known.mcpServers.size > 0 ? ` (configured: ${quoteList([...known.mcpServers])})` : '';
        report(
          `capabilities.tools.mcpRefs[${i}]`,
          `no external MCP server "${ref}" is configured${configured}; pass it in createWildoBackend({ externalMcpServers })`,
        );
        ok = false;
      }
    }
    if (!resolution) return undefined;
    if (!resolution.ok) {
      report('config', resolution.message);
      return undefined;
    }
    if (!ok) return undefined;
    return {
      declaration: agent,
      providerRef: config.providerRef,
      operationKey: config.operationKey,
      model: resolution.model,
      vendorModelId: resolution.vendorModelId,
      config,
    };
  }

  /** Problems of one system: every AGENTIC actor of an actor system converses through a registered CHAT_COMPLETION agent. */
  private validateSystem(
    system: FlowActorSystem,
    declaredAgents: ReadonlyMap<string, Registered<FlowsActors_Agent>>,
  ): Omit<DeclarationProblem, 'declaration'>[] {
    const problems: Omit<DeclarationProblem, 'declaration'>[] = [];
    if (system.kind !== FlowActorSystem_Kind.ACTOR) return problems;
    system.actors.forEach((actor, i) => {
      const path = `actors[${i}].agentRef`;
      const agentic = actor.executionMode === Actor_ExecutionMode.AGENTIC;
      if (actor.agentRef === undefined || actor.agentRef === '') {
        if (agentic)
          problems.push({
            path,
            message: `AGENTIC actor "${actor.ref}" names no agent; set agentRef to a CHAT_COMPLETION agent of a module's flowsActors.agents`,
          });
        return;
      }
      const declared = declaredAgents.get(actor.agentRef);
      if (!declared) {
        problems.push({
          path,
          message: `no agent "${actor.agentRef}" is registered; add it to a module's flowsActors.agents`,
        });
        return;
      }
      const operationKey = declared.value.config.operationKey;
      if (agentic && operationKey !== LLMProvider_OperationKey.CHAT_COMPLETION) {
        problems.push({
          path,
          message: `agent "${actor.agentRef}" performs ${operationKey}, but AGENTIC actor "${actor.ref}" converses; name a ${LLMProvider_OperationKey.CHAT_COMPLETION} agent`,
        });
      }
    });
    return problems;
  }
}

/** True when `operationKey` is a language-model operation. */
export function isLanguageOperation(operationKey: string): operationKey is LLMProvider_OperationKey {
  return (
    operationKey === LLMProvider_OperationKey.CHAT_COMPLETION ||
    operationKey === LLMProvider_OperationKey.GENERATE_STRUCTURED
  );
}
