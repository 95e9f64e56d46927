import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  codingAgentBindingProblems,
  CodingAgent_OperationKey,
  EngineCapability,
  isCapabilityEnabled,
  type CodingAgentConfig,
  type SaaSConfig,
} from '@wildo/shared-lib';
import { loadApplication, type ApplicationLocation } from './application-loader.js';
import { APPLICATION_MODULE_FILE } from './command-help.js';
import { resolveProjectRoot } from './project-root.js';

/** What `wildo config sync` found checking the application's coding agents against the configuration. */
export type CodingAgentsCheck =
  | { checked: false; note?: string }
  | { checked: true; file: string; count: number; problems: string[] };

/**
 * A coding agent binds a declaration to an execution profile of the configuration, so when AI_CODING_AGENT is on,
 * `wildo config sync` also loads the application (the convention file, or `--app`) and checks each coding agent:
 * an `executionProfileRef` naming a declared profile allowed in this environment, on a provider the companion scope
 * runs coding agents of. Without AI_CODING_AGENT the application is not loaded at all.
 */
export async function checkCodingAgents(config: SaaSConfig, location: ApplicationLocation): Promise<CodingAgentsCheck> {
  if (!isCapabilityEnabled(config, EngineCapability.AI_CODING_AGENT)) return { checked: false };
  if (location.app === undefined && !existsSync(path.join(resolveProjectRoot(location), APPLICATION_MODULE_FILE))) {
    return {
      checked: false,
      note: `No application at ${APPLICATION_MODULE_FILE}: its coding agents are checked when it starts (or pass --app <path>).`,
    };
  }
  const { application, file } = await loadApplication(location);
  const problems: string[] = [];
  let count = 0;
  for (const module of application.modules) {
    for (const agent of module.flowsActors?.agents ?? []) {
      if (agent.config.operationKey !== CodingAgent_OperationKey.RUN_TASK) continue;
      count++;
      for (const problem of codingAgentBindingProblems(config, agent.config as CodingAgentConfig)) {
        problems.push(`agent "${agent.ref}" (module "${module.name}") › ${problem.path}: ${problem.message}`);
      }
    }
  }
  return { checked: true, file, count, problems };
}
