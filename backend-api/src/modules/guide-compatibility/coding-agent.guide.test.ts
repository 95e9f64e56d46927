// The guide's coding-agent excerpts (binding, companion profile, the dispatch with its three options) run against
// the stub ACP agent: a task that writes inside and outside its mutation scope, parks on a question, and resumes.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CodingAgent_StopReason, validateSaaSConfig } from '@wildo/shared-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceFixture, type WorkspaceFixture } from '../../engine/agents/coding/coding.fixtures.js';
import { buildRuntimeConfiguration } from '../../engine/config/runtime-configuration.build.js';
import { defineBackendApplication } from '../../engine/bootstrap/backend-domain-module.js';
import { SAAS_SERVICE_TYPES } from '../../engine/container/saas-service-types.tokens.js';
import type { AgentsBackendService } from '../../engine/agents/runtime/agents-backend.service.js';
import { acpStubLauncher, acpStubScript } from '@wildo/backend-api/testing';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { applicationCodingAgent, codingAgentGuideConfig } from './coding-agent-binding.guide.js';
import { ApplicationCodingTaskRunner } from './coding-agent-invocation.guide.js';

describe("the guide's coding agent, against the stub agent", () => {
  const db = useTestDatabase();
  let workspace: WorkspaceFixture;
  let backend: TestBackend;
  let runner: ApplicationCodingTaskRunner;

  beforeAll(async () => {
    workspace = await workspaceFixture();
    const validated = validateSaaSConfig(codingAgentGuideConfig);
    if (!validated.ok) throw new Error(JSON.stringify(validated.problems));
    backend = await createTestBackend(db(), {
      application: defineBackendApplication({
        name: 'wonder-todos-companion',
        modules: [{ name: 'companion', flowsActors: { agents: [applicationCodingAgent] } }],
      }),
      runtime: buildRuntimeConfiguration(validated.config),
      codingAgents: {
        launchers: { anthropic: acpStubLauncher({ stateDir: path.join(path.dirname(workspace.root), 'stub-state') }) },
      },
    });
    const agents = backend.backend.container.get<AgentsBackendService>(SAAS_SERVICE_TYPES.AgentsBackendService);
    runner = new ApplicationCodingTaskRunner(agents, { saasRoot: workspace.root });
  });

  afterAll(async () => {
    await backend?.close();
    await workspace?.cleanup();
  });

  it('runs a task within its mutation scope, parks on a question and resumes the session with the answer', async () => {
    const task = { mutationScope: { allowedPathPrefixes: ['src'], prohibitedPathPrefixes: ['src/generated'] } };
    const renderedPrompt = acpStubScript(
      [
        { write: workspace.at('src', 'feature.ts'), content: 'export const feature = true;\n' },
        { write: workspace.at('src', 'generated', 'client.ts'), content: 'overwritten' },
        { ask: 'Should the feature be on by default?' },
      ],
      [{ sayPrompt: true }],
    );
    const parked = await runner.run(task, renderedPrompt, undefined, { traceId: 'guide-task' });
    expect(parked).toMatchObject({
      stopReason: CodingAgent_StopReason.PARKED,
      text: 'Should the feature be on by default?',
    });
    expect(await readFile(workspace.at('src', 'feature.ts'), 'utf8')).toBe('export const feature = true;\n');
    await expect(readFile(workspace.at('src', 'generated', 'client.ts'), 'utf8')).rejects.toThrow();

    const resume = { answerPrompt: 'Yes, on by default.', continuationOfSessionId: parked.sessionId! };
    const resumed = await runner.run(task, renderedPrompt, resume, { traceId: 'guide-task' });
    expect(resumed).toEqual({
      text: 'prompt: Yes, on by default.',
      stopReason: CodingAgent_StopReason.END_TURN,
      sessionId: parked.sessionId,
    });
  });
});
