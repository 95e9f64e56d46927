// The same runner against a real ACP agent: Claude Code through @agentclientprotocol/claude-agent-acp (the built-in
// Anthropic launcher). It needs ANTHROPIC_API_KEY and the npm registry; without the key it is skipped.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CodingAgent_StopReason, type CodingAgent_RunTaskOutput } from '@wildo/shared-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../../testing/test-backend.js';
import { defineBackendApplication } from '../../bootstrap/backend-domain-module.js';
import { SAAS_SERVICE_TYPES } from '../../container/saas-service-types.tokens.js';
import type { AgentsBackendService } from '../runtime/agents-backend.service.js';
import {
  codingAgentFixture,
  codingConfigFixture,
  codingRuntime,
  profileFixture,
  workspaceFixture,
  type WorkspaceFixture,
} from './coding.fixtures.js';

const key = process.env.ANTHROPIC_API_KEY;

describe.skipIf(!key)('a real ACP agent: Claude Code through claude-agent-acp', () => {
  const db = useTestDatabase();
  let workspace: WorkspaceFixture;
  let backend: TestBackend;

  beforeAll(async () => {
    workspace = await workspaceFixture();
    const config = codingConfigFixture();
    // Its own key, no host settings (so no pre-approved tools): the WORKSPACE_WRITE ceiling can be enforced.
    config.providerConfigurations.anthropic.agent_client_protocol.executionProfiles.real = profileFixture({
      authMode: 'API_KEY',
      hostConfigurationInheritance: 'NONE',
      permissionCeiling: 'WORKSPACE_WRITE',
      turnTimeoutMs: 5 * 60_000,
    });
    backend = await createTestBackend(db(), {
      application: defineBackendApplication({
        name: 'coding-real',
        modules: [{ name: 'coding', flowsActors: { agents: [codingAgentFixture('real')] } }],
      }),
      runtime: codingRuntime(config),
      env: { ANTHROPIC_API_KEY: key },
    });
  });

  afterAll(async () => {
    await backend?.close();
    await workspace?.cleanup();
  });

  it('writes a file inside the permitted location and ends its turn', { timeout: 6 * 60_000 }, async () => {
    const agents = backend.backend.container.get<AgentsBackendService>(SAAS_SERVICE_TYPES.AgentsBackendService);
    const src = workspace.at('src');
    const result = await agents.invokeAgent<CodingAgent_RunTaskOutput>(
      {
        agentRef: 'coding.real',
        initiator: {},
        invocationContext: [],
        input: {
          prompt: `Create the file ${path.join(src, 'hello.txt')} containing exactly the word hello. Do nothing else.`,
        },
        output: { finalMessage: '', stopReason: CodingAgent_StopReason.END_TURN },
        executionContext: { callTimestamp: new Date().toISOString() },
        artifactBindings: [],
      },
      { traceId: 'real-agent' },
      { workspaceRootPath: workspace.root, isPermittedCodingLocation: (location) => location.startsWith(src) },
    );
    expect(result.output.stopReason).toBe(CodingAgent_StopReason.END_TURN);
    expect((await readFile(path.join(src, 'hello.txt'), 'utf8')).trim()).toBe('hello');
  });
});
