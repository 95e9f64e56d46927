import { readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  CodingAgent_OperationContext_BaseSchema,
  CodingAgent_RunTaskInputSchema,
  CodingAgent_RunTaskOutputSchema,
  CodingAgent_StopReason,
  type CodingAgent_ProgressEvent,
  type CodingAgent_RunTaskOutput,
  type FlowsActors_Agent_Invocation,
} from '@wildo/shared-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acpStubLauncher, acpStubScript, isProcessRunning, type AcpStubStep } from '../../../testing/coding-stubs/index.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../../testing/test-backend.js';
import { defineBackendApplication } from '../../container/backend-domain-module.js';
import { SAAS_SERVICE_TYPES } from '../../container/saas-service-types.tokens.js';
import type { AgentsBackendService, InvokeAgentOptions } from '../agents-backend.service.js';
import type { CodingAgentService } from './coding-agent.service.js';
import { codingAgentFixture, codingRuntime, TEST_CODING_PROFILES, workspaceFixture, type WorkspaceFixture } from './coding.fixtures.js';
import { CODING_TYPES } from './coding.tokens.js';

type Invocation = FlowsActors_Agent_Invocation<
  typeof CodingAgent_RunTaskInputSchema,
  typeof CodingAgent_RunTaskOutputSchema,
  typeof CodingAgent_OperationContext_BaseSchema
>;

const application = defineBackendApplication({
  name: 'coding-tests',
  modules: [
    {
      name: 'coding',
      flowsActors: {
        agents: Object.keys(TEST_CODING_PROFILES)
          .filter((profile) => profile !== 'production-only')
          .map(codingAgentFixture),
      },
    },
  ],
});

function task(profile: string, prompt: string, continuationOfSessionId?: string): Invocation {
  return {
    agentRef: `coding.${profile}`,
    initiator: { organizationId: 'org-1' },
    invocationContext: [],
    input: continuationOfSessionId ? { prompt, continuationOfSessionId } : { prompt },
    output: { finalMessage: '', stopReason: CodingAgent_StopReason.END_TURN },
    executionContext: { callTimestamp: new Date().toISOString() },
    artifactBindings: [],
  };
}

const script = (...turns: AcpStubStep[][]) => acpStubScript(...turns);

describe('coding agents over ACP, against the stub agent', () => {
  const db = useTestDatabase();
  let workspace: WorkspaceFixture;
  let stateDir: string;
  let backend: TestBackend;
  let agents: AgentsBackendService;
  let coding: CodingAgentService;

  /** Options of a run: the workspace, `src/` permitted and `secrets/` not, progress collected in `events`. */
  function optionsFor(events: CodingAgent_ProgressEvent[] = [], extra: InvokeAgentOptions = {}): InvokeAgentOptions {
    return {
      workspaceRootPath: workspace.root,
      isPermittedCodingLocation: (location) =>
        location.startsWith(workspace.at('src') + path.sep) || location === workspace.at('src'),
      onCodingProgress: (event) => events.push(event),
      ...extra,
    };
  }

  async function run(profile: string, prompt: string, options: InvokeAgentOptions = optionsFor(), sessionId?: string) {
    const result = await agents.invokeAgent<CodingAgent_RunTaskOutput>(task(profile, prompt, sessionId), { traceId: 't' }, options);
    return result.output;
  }

  beforeAll(async () => {
    workspace = await workspaceFixture();
    stateDir = path.join(path.dirname(workspace.root), 'stub-state');
    backend = await createTestBackend(db(), {
      application,
      runtime: codingRuntime(),
      codingAgents: { launchers: { anthropic: acpStubLauncher({ stateDir }) }, cancelGraceMs: 300, stopGraceMs: 500 },
    });
    agents = backend.backend.container.get<AgentsBackendService>(SAAS_SERVICE_TYPES.AgentsBackendService);
    coding = backend.backend.container.get<CodingAgentService>(CODING_TYPES.CodingAgentService);
  });

  afterAll(async () => {
    await backend?.close();
    await workspace?.cleanup();
  });

  it('finishes a task: the final message and END_TURN, a stored run, progress on the coding channel', async () => {
    const events: CodingAgent_ProgressEvent[] = [];
    const output = await run('unrestricted', script([{ say: 'Renamed the ' }, { say: 'function.' }]), optionsFor(events));
    expect(output).toMatchObject({ finalMessage: 'Renamed the function.', stopReason: 'END_TURN' });
    expect(output.sessionId).toMatch(/^stub-/);
    expect(events.map((e) => e.type)).toEqual(['session', 'message', 'message', 'turn_end']);
    const stored = await coding.getRun(output.runId!);
    expect(stored).toMatchObject({ status: 'ended', stopReason: 'END_TURN', finalMessage: 'Renamed the function.', turns: 1 });
    expect(stored!.record.map((e) => e.type)).toEqual(['session', 'turn_end']);
  });

  it('reads and writes inside the permitted locations; writes outside them, through .. and through a link are refused', async () => {
    await symlink(workspace.outside, workspace.at('src', 'escape'));
    const events: CodingAgent_ProgressEvent[] = [];
    const output = await run(
      'workspace-write',
      script([
        { read: workspace.at('src', 'app.ts') },
        { write: workspace.at('src', 'app.ts'), content: 'export const answer = 42;\n' },
        { write: workspace.at('src', 'new', 'made.ts'), content: 'made\n' },
        { write: workspace.at('secrets', 'key.txt'), content: 'stolen' },
        { write: `${workspace.at('src')}/../secrets/key.txt`, content: 'stolen' },
        { write: workspace.at('src', 'escape', 'note.txt'), content: 'stolen' },
        { write: path.join(workspace.outside, 'note.txt'), content: 'stolen' },
        { read: workspace.at('secrets', 'key.txt') },
      ]),
      optionsFor(events),
    );
    expect(output.stopReason).toBe('END_TURN');
    const said = events.filter((e) => e.type === 'message').map((e) => e.text);
    expect(said[0]).toBe(`read ${workspace.at('src', 'app.ts')}: export const answer = 41;\n`);
    expect(said.slice(1, 3)).toEqual([`wrote ${workspace.at('src', 'app.ts')}`, `wrote ${workspace.at('src', 'new', 'made.ts')}`]);
    expect(said.slice(3).every((text) => text.startsWith('refused '))).toBe(true);
    expect(await readFile(workspace.at('src', 'app.ts'), 'utf8')).toBe('export const answer = 42;\n');
    expect(await readFile(workspace.at('secrets', 'key.txt'), 'utf8')).toBe('do not touch\n');
    expect(await readFile(path.join(workspace.outside, 'note.txt'), 'utf8')).toBe('outside the workspace\n');
    const files = (await coding.getRun(output.runId!))!.record.filter((e) => e.type === 'file');
    expect(files.map((e) => [e.access, e.decision, e.reason])).toEqual([
      ['read', 'allowed', undefined],
      ['write', 'allowed', undefined],
      ['write', 'allowed', undefined],
      ['write', 'refused', 'not_permitted'],
      ['write', 'refused', 'dot_segments'],
      ['write', 'refused', 'symlink'],
      ['write', 'refused', 'outside_workspace'],
      ['read', 'refused', 'not_permitted'],
    ]);
  });

  it('answers permission requests by the ceiling and the locations, never with a standing option', async () => {
    const output = await run(
      'workspace-write',
      script([
        { permission: { kind: 'edit', locations: [workspace.at('src', 'app.ts')] } },
        { permission: { kind: 'execute', title: 'npm test' } },
        { permission: { kind: 'edit', locations: [workspace.at('secrets', 'key.txt')] } },
        { permission: { title: 'undeclared tool' } },
      ]),
    );
    const permissions = (await coding.getRun(output.runId!))!.record.filter((e) => e.type === 'permission');
    expect(permissions.map((e) => [e.kind, e.decision, e.optionId, e.reason])).toEqual([
      ['edit', 'allowed', 'allow', undefined],
      ['execute', 'refused', 'reject', 'above_ceiling'],
      ['edit', 'refused', 'reject', 'not_permitted'],
      ['other', 'refused', 'reject', 'above_ceiling'],
    ]);
    expect(output.finalMessage).toBe('permission allowpermission rejectpermission rejectpermission reject');
  });

  it('refuses file writes under a read-only ceiling', async () => {
    await writeFile(workspace.at('src', 'keep.ts'), 'keep\n');
    const output = await run('read-only', script([{ write: workspace.at('src', 'keep.ts'), content: 'changed' }]));
    expect(output.finalMessage).toMatch(/^refused /);
    expect(await readFile(workspace.at('src', 'keep.ts'), 'utf8')).toBe('keep\n');
  });

  it('parks a run that asks a person, then resumes the same session with the answer', async () => {
    const events: CodingAgent_ProgressEvent[] = [];
    const parked = await run(
      'unrestricted',
      script([{ say: 'Looking.' }, { ask: 'Which port should the server use?' }, { say: 'never said' }], [{ sayPrompt: true }, { sayHistory: true }]),
      optionsFor(events),
    );
    expect(parked).toMatchObject({ stopReason: 'PARKED', finalMessage: 'Which port should the server use?' });
    expect(events.some((e) => e.type === 'awaiting_input')).toBe(true);
    const session = await coding.getSession('coding.unrestricted', parked.sessionId!);
    expect(session).toMatchObject({ status: 'parked', question: 'Which port should the server use?' });

    const resumed = await run('unrestricted', 'Use port 8080.', optionsFor(), parked.sessionId);
    expect(resumed).toMatchObject({ stopReason: 'END_TURN', sessionId: parked.sessionId });
    expect(resumed.finalMessage).toBe('prompt: Use port 8080.prompts in session: 2');
  });

  it('ends a turn that exceeds the turn timeout', async () => {
    const output = await run('short-turn', script([{ say: 'Working' }, { hang: true }]));
    expect(output).toMatchObject({ stopReason: 'TURN_TIMEOUT', finalMessage: 'Working' });
  });

  it('cancels mid-turn through the abort signal and ends the subprocess with its children', async () => {
    const controller = new AbortController();
    let child = 0;
    const events: CodingAgent_ProgressEvent[] = [];
    const output = await run(
      'unrestricted',
      script([{ spawnChild: true }, { hang: true, ignoreCancel: true }]),
      optionsFor(events, {
        codingSessionAbortSignal: controller.signal,
        onCodingProgress: (event) => {
          events.push(event);
          const pid = event.type === 'message' ? /^child (\d+)$/.exec(event.text)?.[1] : undefined;
          if (pid) {
            child = Number(pid);
            controller.abort();
          }
        },
      }),
    );
    expect(output.stopReason).toBe('CANCELLED');
    expect(child).toBeGreaterThan(0);
    expect(isProcessRunning(child)).toBe(false);
  });

  it('continues automatically up to maxAutoContinuations, then reports the last stop reason', async () => {
    const events: CodingAgent_ProgressEvent[] = [];
    const output = await run('continuing', script([{ say: 'part' }, { stop: 'max_turn_requests' }]), optionsFor(events));
    expect(output).toMatchObject({ stopReason: 'MAX_TURN_REQUESTS', finalMessage: 'part' });
    expect(events.filter((e) => e.type === 'auto_continuation').map((e) => e.type === 'auto_continuation' && e.count)).toEqual([1, 2]);
    expect(await coding.getRun(output.runId!)).toMatchObject({ turns: 3, autoContinuations: 2 });
  });
});
