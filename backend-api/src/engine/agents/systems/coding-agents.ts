import {
  codingAgentBindingProblems,
  CodingAgent_OperationKey,
  LLMProvider_OperationKey,
  type CodingAgentConfig,
  type FlowsActors_Agent,
} from '@wildo/shared-lib';
import { SYNC_COMMAND, type RuntimeConfiguration } from '../../config/index.js';

/** The model a coding agent without a pinned one reports in traces: the agent chooses its own. */
export const CODING_AGENT_DEFAULT_MODEL = 'agent-default';

/** Whether an agent declaration is a coding agent (its config is the coding arm). */
export function isCodingAgent(agent: FlowsActors_Agent): agent is FlowsActors_Agent & { config: CodingAgentConfig } {
  return agent.config.operationKey === CodingAgent_OperationKey.RUN_TASK;
}

/** How registration resolves a model for a provider (the registry's resolver). */
type ModelResolver = (
  providerRef: string,
  request: { model?: string; operationKey: string },
) => { ok: true; model: string; vendorModelId: string } | { ok: false; message: string };

/**
 * Registers a coding agent: its provider runs coding agents in the companion scope, its execution profile is
 * declared and allowed in this environment, and a pinned model is one its provider converses with. Problems are
 * reported through `report` (path relative to the agent), naming the fix; undefined when the agent is refused.
 */
export function registerCodingAgent(
  agent: FlowsActors_Agent & { config: CodingAgentConfig },
  runtime: RuntimeConfiguration | undefined,
  resolveModel: ModelResolver,
  report: (path: string, message: string) => void,
): { model: string; vendorModelId: string } | undefined {
  const { config } = agent;
  if (!runtime) {
    report(
      'config.providerRef',
      `no runtime configuration is loaded, so no coding agent can run; start the backend with the generated runtime configuration (run ${SYNC_COMMAND})`,
    );
    return undefined;
  }
  const problems = codingAgentBindingProblems(runtime, config);
  for (const { path, message } of problems) {
    // A provider problem is fixed in the configuration; a profile problem in the declaration or the configuration.
    report(
      path,
      path === 'config.providerRef' ? `${message} in wildo.saas.config.ts and run ${SYNC_COMMAND}` : message,
    );
  }
  let model = { model: CODING_AGENT_DEFAULT_MODEL, vendorModelId: CODING_AGENT_DEFAULT_MODEL };
  if (config.model !== undefined) {
    // A coding agent converses with its model: the model must be one its provider serves for chat.
    const resolution = resolveModel(config.providerRef, {
      model: config.model,
      operationKey: LLMProvider_OperationKey.CHAT_COMPLETION,
    });
    if (!resolution.ok) {
      report('config.model', resolution.message);
      return undefined;
    }
    model = { model: resolution.model, vendorModelId: resolution.vendorModelId };
  }
  return problems.length === 0 ? model : undefined;
}
