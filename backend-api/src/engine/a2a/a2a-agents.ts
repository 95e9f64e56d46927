import {
  Actor_ExecutionMode,
  FlowActorSystem_Kind,
  ResourceServerKind,
  type FlowActorSystem,
  type ResourceServerInstance,
} from '@wildo/shared-lib';
import type { AgentsRegistry, FlowsActorsApplication } from '../agents/systems/index.js';
import type { ResourceServerInstancesRegistryBackendService } from '../resource-servers/index.js';
import type { DeclarationProblem } from '../resources/index.js';
import { invalidParams } from './a2a-protocol.js';
import { A2A_PATH, instancePath } from '../urls/index.js';

/** One skill of an agent card: an eligible actor system. */
export interface A2aSkill {
  id: string;
  name: string;
  description: string;
}

/** One addressable A2A agent: the default one, or a named instance. */
export interface A2aAgent {
  /** `undefined` for the default agent. */
  ref?: string;
  name: string;
  description: string;
  /** The token audience, which is also the JSON-RPC endpoint URL. */
  audience: string;
  skills: readonly A2aSkill[];
}

/** A system the default card exposes: an ACTOR system with an AGENTIC actor that names an agent. */
function isEligible(system: FlowActorSystem): boolean {
  return (
    system.kind === FlowActorSystem_Kind.ACTOR &&
    system.actors.some((actor) => actor.executionMode === Actor_ExecutionMode.AGENTIC && Boolean(actor.agentRef))
  );
}

function skillOf(system: FlowActorSystem): A2aSkill {
  return { id: system.ref, name: system.displayName, description: system.description ?? system.displayName };
}

/**
 * Problems of the A2A instances' `actorSystemRefs`: each ref must name a registered ACTOR system with an AGENTIC
 * actor and an agentRef. Start-up refuses on any (an unresolved ref must never broaden a card to the default).
 */
export function a2aInstanceProblems(
  registry: Pick<AgentsRegistry, 'listSystems'>,
  instances: readonly ResourceServerInstance[],
): DeclarationProblem[] {
  const eligible = new Set(
    registry
      .listSystems()
      .filter(isEligible)
      .map((system) => system.ref),
  );
  const problems: DeclarationProblem[] = [];
  instances.forEach((instance, index) => {
    if (instance.kind !== ResourceServerKind.A2A) return;
    instance.actorSystemRefs?.forEach((ref, i) => {
      if (eligible.has(ref)) return;
      problems.push({
        declaration: `A2A instance "${instance.ref}"`,
        path: `resourceServerInstances[${index}].actorSystemRefs[${i}]`,
        message: `"${ref}" is not a registered ACTOR system with an AGENTIC actor and an agentRef; register that system in a module of the application or remove it from actorSystemRefs`,
      });
    });
  });
  return problems;
}

/**
 * The application's A2A agents. Built at start: a named instance whose `actorSystemRefs` names a system that is
 * not registered or not eligible refuses the start (one line naming the declaration and the fix), so a typo can
 * never broaden a card to the default selection.
 */
export class A2aAgentDirectory {
  private readonly agents = new Map<string | undefined, A2aAgent>();

  constructor(
    registry: Pick<AgentsRegistry, 'listSystems'>,
    instances: readonly ResourceServerInstance[],
    resourceServers: Pick<ResourceServerInstancesRegistryBackendService, 'audienceOf'>,
    applicationName: string,
  ) {
    const eligible = registry.listSystems().filter(isEligible);
    const byRef = new Map(eligible.map((system) => [system.ref, system]));
    this.agents.set(undefined, {
      name: applicationName,
      description: `The ${applicationName} agent.`,
      audience: resourceServers.audienceOf(ResourceServerKind.A2A),
      skills: eligible.map(skillOf),
    });
    for (const instance of instances.filter((i) => i.kind === ResourceServerKind.A2A)) {
      const refs = instance.actorSystemRefs ?? eligible.map((system) => system.ref);
      const skills = refs.map((ref) => {
        const system = byRef.get(ref);
        if (!system)
          throw new Error(
            `A2A instance "${instance.ref}": actorSystemRefs names "${ref}", which is not a registered ACTOR system with an AGENTIC actor and an agentRef; register that system in a module of the application or remove it from the list.`,
          );
        return skillOf(system);
      });
      this.agents.set(instance.ref, {
        ref: instance.ref,
        name: instance.displayName,
        description: instance.description ?? instance.displayName,
        audience: resourceServers.audienceOf(ResourceServerKind.A2A, instance.ref),
        skills,
      });
    }
  }

  /** The agent at `/a2a` (no ref) or `/a2a/:ref`; undefined for an unknown instance (never the default). */
  agent(ref: string | undefined): A2aAgent | undefined {
    return this.agents.get(ref);
  }

  /** Every agent, the default first. */
  list(): A2aAgent[] {
    return [...this.agents.values()];
  }
}

/** One A2A agent as `wildo exposure` reports it: its endpoint below `/api/v1` and the skills on its card. */
export interface A2aAgentExposure {
  name: string;
  endpoint: string;
  skills: string[];
}

/**
 * The A2A agents an application publishes, read from its declarations without starting it: the default agent
 * with every eligible actor system, then each named instance with its selection (refs that do not resolve are
 * left out here; start-up refuses them).
 */
export function describeA2aAgents(application: FlowsActorsApplication): A2aAgentExposure[] {
  const systems = application.modules.flatMap((module) =>
    Object.values(module.flowsActors?.flowActorSystemsFactoryMap ?? {}).map((factory) => factory()),
  );
  const eligible = systems.filter(isEligible).map((system) => system.ref);
  return [
    { name: 'default', endpoint: instancePath(A2A_PATH), skills: [...eligible].sort() },
    ...(application.resourceServerInstances ?? [])
      .filter((instance) => instance.kind === ResourceServerKind.A2A)
      .map((instance) => ({
        name: instance.ref,
        endpoint: instancePath(A2A_PATH, instance.ref),
        skills: (instance.actorSystemRefs ?? eligible).filter((ref) => eligible.includes(ref)),
      })),
  ];
}

/**
 * The skill a message addresses: `metadata.skillId` when given (an unknown one is refused before any model turn),
 * else the only skill of the card. A card with several skills needs an explicit choice.
 */
export function resolveSkill(agent: A2aAgent, skillId: string | undefined): A2aSkill {
  if (skillId !== undefined) {
    const skill = agent.skills.find((candidate) => candidate.id === skillId);
    if (!skill) throw invalidParams('metadata.skillId names no skill of this agent card.');
    return skill;
  }
  const [only, ...others] = agent.skills;
  if (!only) throw invalidParams('this agent exposes no skill.');
  if (others.length > 0) throw invalidParams('this agent has several skills: choose one with metadata.skillId.');
  return only;
}
