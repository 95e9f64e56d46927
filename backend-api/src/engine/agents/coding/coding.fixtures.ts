// Test fixtures: a configuration with coding-agent profiles, its runtime form, coding agents bound to each profile,
// and throwaway workspaces.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LLM_Model, validateSaaSConfig, type FlowsActors_Agent } from '@wildo/shared-lib';
import { validConfigFixture, type ConfigFixture } from '../../config/config.fixtures.js';
import { buildRuntimeConfiguration } from '../../config/runtime-configuration.build.js';
import type { RuntimeConfiguration } from '../../config/index.js';
import { defineCodingAgent } from './define-coding-agent.js';

/** An execution profile in plain data (the guide's development profile), with `overrides` applied. */
export function profileFixture(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    runnerHost: 'BACKEND_SUBPROCESS',
    authMode: 'HOST_MANAGED',
    allowedApplicationEnvironments: ['DEVELOPMENT'],
    workingDirectoryPolicy: 'WORKSPACE_ROOT',
    permissionCeiling: 'UNRESTRICTED',
    hostConfigurationInheritance: 'APPLICATION_SCOPED',
    turnTimeoutMs: 30 * 60_000,
    maxAutoContinuations: 0,
    awaitingInputTtlMs: 30 * 60_000,
    ...overrides,
  };
}

/** The profiles the coding tests bind agents to, by ref. */
export const TEST_CODING_PROFILES = {
  unrestricted: profileFixture(),
  'workspace-write': profileFixture({ permissionCeiling: 'WORKSPACE_WRITE' }),
  'read-only': profileFixture({ permissionCeiling: 'READ_ONLY' }),
  'short-turn': profileFixture({ turnTimeoutMs: 1_000 }),
  continuing: profileFixture({ maxAutoContinuations: 2 }),
  'api-key': profileFixture({ authMode: 'API_KEY' }),
  'production-only': profileFixture({ allowedApplicationEnvironments: ['PRODUCTION'] }),
} as const;

/** A valid configuration with AI_CODING_AGENT on, anthropic in the companion scope and {@link TEST_CODING_PROFILES}. */
export function codingConfigFixture(): ConfigFixture & Record<string, any> {
  const config = validConfigFixture() as ConfigFixture & Record<string, any>;
  config.engineCapabilities.AI_CODING_AGENT = { enabled: true };
  config.providers.scopes.companion = {
    providers: {
      anthropic: {
        engineCapabilities: ['AI_CODING_AGENT'],
        providerCapabilities: ['CODING_AGENT'],
        protocols: ['AGENT_CLIENT_PROTOCOL'],
      },
    },
    selection: {},
  };
  config.providerConfigurations = {
    anthropic: {
      agent_client_protocol: {
        defaultExecutionProfileRef: 'unrestricted',
        executionProfiles: structuredClone(TEST_CODING_PROFILES),
      },
    },
  };
  return config;
}

/** The runtime configuration `wildo config sync` renders from `config` (default {@link codingConfigFixture}). */
export function codingRuntime(config: unknown = codingConfigFixture()): RuntimeConfiguration {
  const result = validateSaaSConfig(config);
  if (!result.ok) throw new Error(`fixture: ${result.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
  return buildRuntimeConfiguration(result.config);
}

/** A coding agent (anthropic, Claude Opus 5) bound to one of the test profiles; its ref is `coding.<profile>`. */
export function codingAgentFixture(profile: string): FlowsActors_Agent {
  return defineCodingAgent({
    ref: `coding.${profile}`,
    displayName: `Coding agent (${profile})`,
    providerRef: 'anthropic',
    executionProfileRef: profile,
    model: LLM_Model.CLAUDE_OPUS_5,
  });
}

/** A workspace: `src/` (allowed), `secrets/` (prohibited), a sibling `outside/` and a file in each. */
export interface WorkspaceFixture {
  /** The workspace root (a real path). */
  root: string;
  /** A directory beside the workspace, outside it. */
  outside: string;
  at(...segments: string[]): string;
  cleanup(): Promise<void>;
}

/** Creates a {@link WorkspaceFixture} in a fresh temporary directory. */
export async function workspaceFixture(): Promise<WorkspaceFixture> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'wildo-coding-')));
  const root = path.join(base, 'workspace');
  const outside = path.join(base, 'outside');
  await mkdir(path.join(root, 'src'), { recursive: true });
  await mkdir(path.join(root, 'secrets'), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(path.join(root, 'src', 'app.ts'), 'export const answer = 41;\n');
  await writeFile(path.join(root, 'secrets', 'key.txt'), 'do not touch\n');
  await writeFile(path.join(outside, 'note.txt'), 'outside the workspace\n');
  return {
    root,
    outside,
    at: (...segments) => path.join(root, ...segments),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}
