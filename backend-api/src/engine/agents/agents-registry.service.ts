import {
  EngineCapability,
  FlowActorSystem_Kind,
  ImageProvider_OperationKey,
  LLMProvider_OperationKey,
  type FlowActorSystem,
  type FlowsActors_Agent,
  type ImageAgentConfig,
  type LLMAgentConfig,
} from '@wildo/shared-lib';
import type { BackendApplicationDefinition } from '../container/backend-domain-module.js';
import type { RuntimeConfiguration } from '../config/index.js';
import type { DeclarationProblem } from '../resources/resources.errors.js';
import { DeclarationValidationError } from '../resources/resources.errors.js';
import type { FunctionTool } from './tools/function-tool.types.js';

/** Resolves an agent's model (pinned or by applicability class) for its provider, or says why it cannot. */
export type AgentModelResolver = (
  providerRef: string,
  request: { model?: string; modelApplicability?: string; operationKey: string; reasoningEffort?: string },
) => { ok: true; model: string } | { ok: false; message: string };

/** An agent after registration: its declaration and the configuration its calls receive. */
export interface ResolvedAgent {
  declaration: FlowsActors_Agent;
  providerRef: string;
  operationKey: LLMProvider_OperationKey | ImageProvider_OperationKey;
  /** The concrete vendor model the calls use (an applicability class is resolved once, here). */
  model: string;
  config: LLMAgentConfig | ImageAgentConfig;
}

const isImage = (agent: FlowsActors_Agent) => agent.config.operationKey === ImageProvider_OperationKey.GENERATE_IMAGE;

/** Whether the runtime scope declares the provider for this kind of operation (and its capability is on). */
function providerEnabled(runtime: RuntimeConfiguration | undefined, providerRef: string, image: boolean): boolean {
  const provider = runtime?.providers.scopes.backend?.providers[providerRef];
  if (!provider) return false;
  if (image) return (provider.providerCapabilities as readonly string[]).includes('IMAGE_GENERATION');
  return (provider.engineCapabilities as readonly string[]).includes(EngineCapability.AI_LLM) && runtime?.engineCapabilities[EngineCapability.AI_LLM]?.enabled === true;
}

/**
 * Every agent, function tool and system of the application's modules, validated at start. Registration refuses,
 * naming the agent and the fix: a provider or operation mismatch between `config` and `operationDefinition`,
 * not exactly one of `model`/`modelApplicability`, a model or class the provider cannot serve, reasoning the
 * resolved model does not support, an unregistered function ref, a provider not enabled in the runtime scope.
 */
export class AgentsRegistry {
  private readonly agents = new Map<string, ResolvedAgent>();
  private readonly tools = new Map<string, FunctionTool>();
  private readonly systems = new Map<string, FlowActorSystem>();

  constructor(application: BackendApplicationDefinition, runtime: RuntimeConfiguration | undefined, resolveModel: AgentModelResolver) {
    const problems: DeclarationProblem[] = [];
    for (const module of application.modules) {
      const contribution = module.flowsActors;
      for (const tool of contribution?.functionTools ?? []) {
        if (this.tools.has(tool.functionRef)) problems.push({ declaration: `function tool "${tool.functionRef}"`, path: 'functionRef', message: 'registered twice; each ref names one tool' });
        this.tools.set(tool.functionRef, tool);
      }
      for (const [ref, factory] of Object.entries(contribution?.flowActorSystemsFactoryMap ?? {})) this.systems.set(ref, factory());
    }
    for (const module of application.modules) {
      for (const agent of module.flowsActors?.agents ?? []) {
        const label = `agent "${agent.ref}" (module "${module.name}")`;
        const report = (path: string, message: string) => problems.push({ declaration: label, path, message });
        if (this.agents.has(agent.ref)) report('ref', 'registered twice; each ref names one agent');
        const resolved = this.resolve(agent, runtime, resolveModel, report);
        if (resolved) this.agents.set(agent.ref, resolved);
      }
    }
    problems.push(...this.validateSystems());
    if (problems.length > 0) throw new DeclarationValidationError(problems);
  }

  /** A registered agent; undefined when none has this ref. */
  agent(ref: string): ResolvedAgent | undefined {
    return this.agents.get(ref);
  }

  /** A registered function tool. */
  tool(ref: string): FunctionTool | undefined {
    return this.tools.get(ref);
  }

  /** A registered system. */
  system(ref: string): FlowActorSystem | undefined {
    return this.systems.get(ref);
  }

  /** Every registered system. */
  listSystems(): FlowActorSystem[] {
    return [...this.systems.values()];
  }

  private resolve(agent: FlowsActors_Agent, runtime: RuntimeConfiguration | undefined, resolveModel: AgentModelResolver, report: (path: string, message: string) => void): ResolvedAgent | undefined {
    const { config, operationDefinition } = agent;
    let ok = true;
    if (config.providerRef !== operationDefinition.providerRef) {
      report('operationDefinition.providerRef', `"${operationDefinition.providerRef}" differs from config.providerRef "${config.providerRef}"; name the same provider in both`);
      ok = false;
    }
    if (config.operationKey !== operationDefinition.operationKey) {
      report('operationDefinition.operationKey', `"${operationDefinition.operationKey}" differs from config.operationKey "${config.operationKey}"; declare the same operation in both`);
      ok = false;
    }
    const llm = config as LLMAgentConfig;
    if (!isImage(agent) && (llm.model === undefined) === (llm.modelApplicability === undefined)) {
      report('config', 'author exactly one of model (a pinned model) or modelApplicability (a class the provider resolves)');
      ok = false;
    }
    if (!providerEnabled(runtime, config.providerRef, isImage(agent))) {
      report('config.providerRef', `provider "${config.providerRef}" is not enabled in the backend runtime scope; declare it in wildo.saas.config.ts (providers.scopes.backend) and run wildo config sync`);
      ok = false;
    }
    for (const [i, ref] of (agent.capabilities?.tools?.functionRefs ?? []).entries()) {
      if (!this.tools.has(ref)) {
        report(`capabilities.tools.functionRefs[${i}]`, `no function tool "${ref}" is registered; add it to a module's flowsActors.functionTools`);
        ok = false;
      }
    }
    if (!ok) return undefined;
    const resolution = resolveModel(config.providerRef, {
      ...(config.model !== undefined ? { model: config.model } : {}),
      ...(llm.modelApplicability !== undefined ? { modelApplicability: llm.modelApplicability } : {}),
      operationKey: config.operationKey,
      ...(llm.reasoningEffort !== undefined ? { reasoningEffort: llm.reasoningEffort } : {}),
    });
    if (!resolution.ok) return void report('config', resolution.message);
    return { declaration: agent, providerRef: config.providerRef, operationKey: config.operationKey, model: resolution.model, config };
  }

  private validateSystems(): DeclarationProblem[] {
    const problems: DeclarationProblem[] = [];
    for (const system of this.systems.values()) {
      if (system.kind !== FlowActorSystem_Kind.ACTOR) continue;
      system.actors.forEach((actor, i) => {
        if (actor.agentRef && !this.agents.has(actor.agentRef)) {
          problems.push({ declaration: `system "${system.ref}"`, path: `actors[${i}].agentRef`, message: `no agent "${actor.agentRef}" is registered; add it to a module's flowsActors.agents` });
        }
      });
    }
    return problems;
  }
}

/** True when `operationKey` is a language-model operation. */
export function isLanguageOperation(operationKey: string): operationKey is LLMProvider_OperationKey {
  return operationKey === LLMProvider_OperationKey.CHAT_COMPLETION || operationKey === LLMProvider_OperationKey.GENERATE_STRUCTURED;
}
