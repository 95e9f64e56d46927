import { describe, expect, it } from 'vitest';
import { defineBackendApplication } from '../../bootstrap/backend-domain-module.js';
import { DeclarationValidationError } from '../../resources/resources.errors.js';
import { catalogueModelResolver } from '../systems/agent-model-resolver.js';
import { AgentsRegistry } from '../systems/agents-registry.service.js';
import { codingAgentFixture, codingConfigFixture, codingRuntime } from './coding.fixtures.js';
import { defineCodingAgent } from './define-coding-agent.js';

function register(...agents: ReturnType<typeof codingAgentFixture>[]) {
  const application = defineBackendApplication({
    name: 'coding',
    modules: [{ name: 'coding', flowsActors: { agents } }],
  });
  return new AgentsRegistry(application, codingRuntime(), catalogueModelResolver());
}

function problemsOf(action: () => unknown): string[] {
  try {
    action();
  } catch (error) {
    if (error instanceof DeclarationValidationError)
      return error.problems.map((p) => `${p.declaration} › ${p.path}: ${p.message}`);
    throw error;
  }
  return [];
}

describe('registering coding agents at start', () => {
  it('registers a coding agent bound to a profile allowed here, on the pinned model', () => {
    const registry = register(codingAgentFixture('unrestricted'));
    expect(registry.agent('coding.unrestricted')).toMatchObject({
      operationKey: 'RUN_TASK',
      vendorModelId: 'claude-opus-5',
    });
  });

  it('refuses a coding agent without a profile, with a profile not allowed here, or on another vendor’s model', () => {
    const unbound = codingAgentFixture('unrestricted');
    delete (unbound.config as { executionProfileRef?: string }).executionProfileRef;
    const wrongModel = defineCodingAgent({
      ref: 'coding.gpt',
      displayName: 'GPT coding',
      providerRef: 'anthropic',
      executionProfileRef: 'unrestricted',
      model: 'gpt-5' as never,
    });
    const problems = problemsOf(() =>
      register({ ...unbound, ref: 'coding.unbound' }, codingAgentFixture('production-only'), wrongModel),
    );
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(
      /^agent "coding\.unbound" \(module "coding"\) › config\.executionProfileRef: a coding agent requires executionProfileRef/,
    );
    expect(problems[1]).toMatch(
      /^agent "coding\.production-only" .* › config\.executionProfileRef: execution profile "production-only" is not allowed in DEVELOPMENT/,
    );
    expect(problems[2]).toMatch(
      /^agent "coding\.gpt" .* › config\.model: Provider "anthropic" does not serve model "gpt-5"/,
    );
  });

  it('refuses a coding agent whose provider the companion scope does not run coding agents of', () => {
    const config = codingConfigFixture();
    delete config.providers.scopes.companion;
    const application = defineBackendApplication({
      name: 'coding',
      modules: [{ name: 'coding', flowsActors: { agents: [codingAgentFixture('unrestricted')] } }],
    });
    expect(problemsOf(() => new AgentsRegistry(application, codingRuntime(config), catalogueModelResolver()))).toEqual([
      `agent "coding.unrestricted" (module "coding") › config.providerRef: provider "anthropic" is not declared in providers.scopes.companion.providers; its AI_LLM entry in providers.scopes.backend cannot substitute for the companion transport; declare it there with engineCapabilities [AI_CODING_AGENT], providerCapabilities ['CODING_AGENT'], protocols ['AGENT_CLIENT_PROTOCOL'] in wildo.saas.config.ts and run wildo config sync`,
    ]);
  });
});
