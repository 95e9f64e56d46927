import { a2aInstanceProblems } from '../a2a/index.js';
import { AgentsRegistry, catalogueModelResolver, type AgentModelResolver } from '../agents/systems/index.js';
import type { RuntimeConfiguration } from '../config/index.js';
import {
  compileApplicationResources,
  DeclarationValidationError,
  ResourcesRegistry,
  type DeclarationProblem,
} from '../resources/index.js';
import { compileApplicationBindings } from '../connectors/index.js';
import type { BackendApplicationDefinition } from './backend-domain-module.js';
import { withEngineModules } from './engine-modules.js';

/** What declarations are checked against besides themselves. */
export interface DeclarationValidationOptions {
  /** The generated runtime configuration: which providers agents may use. */
  runtime?: RuntimeConfiguration;
  /** Refs of the external MCP servers agents may name. */
  externalMcpServerRefs?: readonly string[];
  /** How agents' models are resolved (default: the framework's model catalogue). */
  resolveModel?: AgentModelResolver;
}

/** An application whose declarations were all accepted, as the engine runs it. */
export interface ValidatedApplication {
  /** The application with the engine's own modules first. */
  application: BackendApplicationDefinition;
  registry: ResourcesRegistry;
  agents: AgentsRegistry;
}

/**
 * Validates every declaration of an application (the engine's modules included): resources, service code,
 * function tools, agents and actor systems, together. Throws one {@link DeclarationValidationError} listing every
 * problem, one line each; nothing is opened (no database, no server). Start-up and `wildo check` both call it,
 * so they print the same lines.
 *
 * @example
 * const { registry, agents } = validateDeclarations(application, { runtime });
 */
export function validateDeclarations(
  application: BackendApplicationDefinition,
  options: DeclarationValidationOptions = {},
): ValidatedApplication {
  const full = withEngineModules(application);
  const compiled = compileApplicationResources(full);
  const problems: DeclarationProblem[] = [...compiled.problems];
  compileApplicationBindings(full, compiled.resources, compiled.refusedTypes, problems);
  let agents: AgentsRegistry | undefined;
  try {
    agents = new AgentsRegistry(full, options.runtime, options.resolveModel ?? catalogueModelResolver(), {
      ...(options.externalMcpServerRefs ? { externalMcpServerRefs: options.externalMcpServerRefs } : {}),
      resources: compiled,
    });
  } catch (error) {
    if (!(error instanceof DeclarationValidationError)) throw error;
    problems.push(...error.problems);
  }
  if (agents) problems.push(...a2aInstanceProblems(agents, full.resourceServerInstances ?? []));
  if (problems.length > 0 || !agents) throw new DeclarationValidationError(problems);
  return { application: full, registry: ResourcesRegistry.fromCompiled(compiled), agents };
}
