import { readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type AgentCallTraceEmission,
  CodingAgent_OperationContext_BaseSchema,
  CodingAgent_RunTaskInputSchema,
  CodingAgent_RunTaskOutputSchema,
  CodingAgent_StopReason,
  A2A_TOKEN_BUDGET_FEATURE_ID,
  type CodingAgent_ProgressEvent,
  type CodingAgent_RunTaskOutput,
  type FlowsActors_Agent_Invocation,
} from '@wildo/shared-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acpStubLauncher,
  acpStubScript,
  isProcessRunning,
  type AcpStubStep,
} from '../../../testing/coding-stubs/index.js';
import { ManualClock } from '../../../testing/manual-clock.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../../testing/test-backend.js';
import { defineBackendApplication } from '../../bootstrap/backend-domain-module.js';
import { SAAS_SERVICE_TYPES } from '../../container/saas-service-types.tokens.js';
import { FrameworkError } from '../../errors/index.js';
import type { AgentsRegistry } from '../systems/agents-registry.service.js';
import type { SqlTokenBudgetService } from '../budgets/sql-token-budget.service.js';
import type { AgentsBackendService, InvokeAgentOptions } from '../runtime/agents-backend.service.js';
import { CodingAgentService } from './coding-agent.service.js';
import type { CodingAgentLauncher } from './coding-agent.types.js';
import {
  codingAgentFixture,
  codingRuntime,
  TEST_CODING_PROFILES,
  workspaceFixture,
  type WorkspaceFixture,
} from './coding.fixtures.js';
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

function task(
  profile: string,
  prompt: string,
  continuationOfSessionId?: string,
  initiator: Invocation['initiator'] = { organizationId: 'org-1' },
): Invocation {
  return {
    agentRef: `coding.${profile}`,
    initiator,
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
  const clock = new ManualClock();
  const traces: AgentCallTraceEmission[] = [];

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
    const result = await agents.invokeAgent<CodingAgent_RunTaskOutput>(
      task(profile, prompt, sessionId),
      { traceId: 't' },
      options,
    );
    return result.output;
  }

  /** How many runs are stored (a refusal must store none). */
  async function storedRuns(): Promise<number> {
    const { rows } = await db().query<{ n: string }>('SELECT count(*) AS n FROM wildo_coding_runs');
    return Number(rows[0]!.n);
  }

  beforeAll(async () => {
    workspace = await workspaceFixture();
    stateDir = path.join(path.dirname(workspace.root), 'stub-state');
    backend = await createTestBackend(db(), backendOptions());
    agents = backend.backend.container.get<AgentsBackendService>(SAAS_SERVICE_TYPES.AgentsBackendService);
    coding = backend.backend.container.get<CodingAgentService>(CODING_TYPES.CodingAgentService);
  });

  function backendOptions(): Parameters<typeof createTestBackend>[1] {
    return {
      application,
      runtime: codingRuntime(),
      clock,
      traceSink: { name: 'capture', emit: (trace) => void traces.push(trace), flush: () => Promise.resolve() },
      // The provider key reaches the subprocess only for API_KEY profiles; the host's other secrets never do.
      env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
      codingAgents: {
        launchers: { anthropic: acpStubLauncher({ stateDir }) },
        hostEnv: { ...process.env, DATABASE_URL: 'postgres://secret', ANTHROPIC_API_KEY: 'sk-ant-host' },
        cancelGraceMs: 300,
        stopGraceMs: 500,
      },
    };
  }

  afterAll(async () => {
    await backend?.close();
    await workspace?.cleanup();
  });

  it('finishes a task: the final message and END_TURN, a stored run, progress on the coding channel, a trace', async () => {
    const events: CodingAgent_ProgressEvent[] = [];
    const output = await run(
      'unrestricted',
      script([{ say: 'Renamed the ' }, { say: 'function.' }, { usage: { inputTokens: 700, outputTokens: 50 } }]),
      optionsFor(events),
    );
    expect(output).toMatchObject({ finalMessage: 'Renamed the function.', stopReason: 'END_TURN' });
    expect(output.sessionId).toMatch(/^stub-/);
    expect(events.map((e) => e.type)).toEqual(['session', 'message', 'message', 'turn_end']);
    const stored = await coding.getRun(output.runId!);
    expect(stored).toMatchObject({
      status: 'ended',
      stopReason: 'END_TURN',
      finalMessage: 'Renamed the function.',
      turns: 1,
    });
    expect(stored!.record.map((e) => e.type)).toEqual(['session', 'turn_end']);
    expect(traces.at(-1)).toMatchObject({
      agentRef: 'coding.unrestricted',
      operationKey: 'RUN_TASK',
      model: 'claude-opus-5',
      outcome: 'success',
      context: { finishReason: 'END_TURN', usage: { totalTokens: 750 } },
      traceContext: { traceId: 't' },
    });
    const budgets = backend.backend.container.get<SqlTokenBudgetService>(SAAS_SERVICE_TYPES.TokenBudgetService);
    expect((await budgets.status({ kind: 'organization', organizationId: 'org-1' })).consumedTokens).toBe(750);
  });

  it('selects the pinned model and hands the subprocess only the environment its profile allows', async () => {
    const steps: AcpStubStep[] = [
      { sayModel: true },
      { sayEnv: 'ANTHROPIC_API_KEY' },
      { sayEnv: 'DATABASE_URL' },
      { sayEnv: 'HOME' },
    ];
    const hostManaged = await run('unrestricted', script(steps));
    expect(hostManaged.finalMessage).toBe(
      `model: claude-opus-5env ANTHROPIC_API_KEY=unsetenv DATABASE_URL=unsetenv HOME=${process.env.HOME ?? 'unset'}`,
    );
    const apiKey = await run('api-key', script([{ sayEnv: 'ANTHROPIC_API_KEY' }, { sayEnv: 'DATABASE_URL' }]));
    expect(apiKey.finalMessage).toBe('env ANTHROPIC_API_KEY=sk-ant-testenv DATABASE_URL=unset');
  });

  it('runs commands in a terminal only under an unrestricted ceiling, in a permitted directory', async () => {
    const command = { command: process.execPath, args: ['-e', 'console.log(process.cwd())'] };
    const output = await run(
      'unrestricted',
      script([{ terminal: { ...command, cwd: workspace.at('src') } }, { terminal: command }]),
    );
    expect(output.finalMessage).toBe(
      `terminal 0: ${workspace.at('src')}refused terminal: Invalid params: refused by the client (not_permitted)`,
    );
    const refused = await run('workspace-write', script([{ terminal: { ...command, cwd: workspace.at('src') } }]));
    expect(refused.finalMessage).toBe('refused terminal: Invalid params: refused by the client (above_ceiling)');
    const record = (await coding.getRun(refused.runId!))!.record;
    expect(record.find((e) => e.type === 'terminal')).toMatchObject({ decision: 'refused', reason: 'above_ceiling' });
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
    expect(said.slice(1, 3)).toEqual([
      `wrote ${workspace.at('src', 'app.ts')}`,
      `wrote ${workspace.at('src', 'new', 'made.ts')}`,
    ]);
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
      script(
        [{ say: 'Looking.' }, { ask: 'Which port should the server use?' }, { say: 'never said' }],
        [{ sayPrompt: true }, { sayHistory: true }],
      ),
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

  it('resumes a parked run after a backend restart, in the same session', async () => {
    const parked = await run(
      'unrestricted',
      script([{ ask: 'Which branch?' }], [{ sayPrompt: true }, { sayHistory: true }]),
    );
    expect(parked.stopReason).toBe('PARKED');
    // Another backend on the same database: nothing of the first one's memory or subprocesses carries over.
    const restarted = await createTestBackend(db(), backendOptions());
    try {
      const service = restarted.backend.container.get<AgentsBackendService>(SAAS_SERVICE_TYPES.AgentsBackendService);
      const resumed = await service.invokeAgent(
        task('unrestricted', 'main', parked.sessionId),
        undefined,
        optionsFor(),
      );
      expect(resumed.output).toEqual({
        finalMessage: 'prompt: mainprompts in session: 2',
        stopReason: 'END_TURN',
        sessionId: parked.sessionId,
        runId: expect.any(String),
      });
    } finally {
      await restarted.close();
    }
    expect(await coding.getSession('coding.unrestricted', parked.sessionId!)).toMatchObject({
      status: 'idle',
      question: null,
    });
  });

  it('refuses to resume a session for another initiator, in another workspace, or after its awaiting-input time', async () => {
    const parked = await run('unrestricted', script([{ ask: 'Proceed?' }], [{ sayPrompt: true }]));
    expect(parked.stopReason).toBe('PARKED');
    const before = await storedRuns();
    const other = task('unrestricted', 'Yes.', parked.sessionId, { organizationId: 'org-2' });
    await expect(agents.invokeAgent(other, undefined, optionsFor())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const elsewhere = optionsFor([], { workspaceRootPath: workspace.outside });
    await expect(run('unrestricted', 'Yes.', elsewhere, parked.sessionId)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    clock.advance(30 * 60_000 + 1);
    await expect(run('unrestricted', 'Yes.', optionsFor(), parked.sessionId)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'The parked run waited longer than its awaiting-input time; start a new run.',
    });
    expect(await storedRuns()).toBe(before);
  });

  it('refuses a dispatch without a workspace or a location predicate, before anything is stored or started', async () => {
    const before = await storedRuns();
    const prompt = script([{ say: 'never' }]);
    await expect(run('unrestricted', prompt, { isPermittedCodingLocation: () => true })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(
      run('unrestricted', prompt, { workspaceRootPath: 'relative/path', isPermittedCodingLocation: () => true }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(run('unrestricted', prompt, { workspaceRootPath: workspace.root })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect(await storedRuns()).toBe(before);
  });

  /** A coding service of this backend's container with another launcher (dispatched directly, as invokeAgent does). */
  function serviceWith(launcher: CodingAgentLauncher) {
    const container = backend.backend.container;
    const service = new CodingAgentService({
      runtime: codingRuntime(),
      store: container.get(CODING_TYPES.CodingRunStore),
      recorder: container.get(SAAS_SERVICE_TYPES.AgentCallRecorder),
      budgets: container.get(SAAS_SERVICE_TYPES.BudgetAdmission),
      clock,
      logger: container.get(SAAS_SERVICE_TYPES.Logger),
      env: {},
      settings: { launchers: { anthropic: launcher } },
    });
    const registry = container.get<AgentsRegistry>(SAAS_SERVICE_TYPES.AgentsRegistry);
    return (profile: string, prompt = script([{ say: 'ran' }]), continuationOfSessionId?: string) =>
      service.dispatch({
        agent: registry.agent(`coding.${profile}`) as Parameters<CodingAgentService['dispatch']>[0]['agent'],
        invocation: task(profile, 'go'),
        input: continuationOfSessionId ? { prompt, continuationOfSessionId } : { prompt },
        options: optionsFor(),
        tenant: { kind: 'organization', organizationId: 'org-1' },
      });
  }

  it('refuses a restrictive ceiling at dispatch when the provider escalates without callbacks', async () => {
    const dispatch = serviceWith(acpStubLauncher({ escalatesPermissionsWithoutCallbacks: true }));
    const before = await storedRuns();
    const error = await dispatch('workspace-write').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FrameworkError);
    expect(error).toMatchObject({ code: 'FORBIDDEN' });
    expect((error as Error).message).toContain('The WORKSPACE_WRITE permission ceiling cannot be enforced');
    expect(await storedRuns()).toBe(before);
    // Positive control: under an unrestricted ceiling the same provider runs.
    expect((await dispatch('unrestricted')).output).toMatchObject({ stopReason: 'END_TURN', finalMessage: 'ran' });
  });

  it('reports a launcher that cannot start as unavailable, naming what to check', async () => {
    const dispatch = serviceWith({
      command: path.join(workspace.outside, 'no-such-agent'),
      escalatesPermissionsWithoutCallbacks: false,
    });
    await expect(dispatch('unrestricted')).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The coding agent could not be started; check that its provider’s agent is installed on this host.',
    });
  });

  it('reopens a session with session/load when the agent declares only that, and refuses one it cannot reopen', async () => {
    const loading = serviceWith(acpStubLauncher({ stateDir, capabilities: ['load'] }));
    const parked = await loading(
      'unrestricted',
      script([{ ask: 'Tabs or spaces?' }], [{ sayPrompt: true }, { sayHistory: true }]),
    );
    const resumed = await loading('unrestricted', 'Spaces.', parked.output.sessionId);
    expect(resumed.output).toMatchObject({
      stopReason: 'END_TURN',
      finalMessage: 'prompt: Spaces.prompts in session: 2',
    });
    const record = (await coding.getRun(resumed.output.runId!))!.record;
    expect(record[0]).toMatchObject({ type: 'session', mode: 'load', sessionId: parked.output.sessionId });

    const forgetful = serviceWith(acpStubLauncher({ stateDir, capabilities: [] }));
    const asked = await forgetful('unrestricted', script([{ ask: 'Tabs or spaces?' }]));
    expect(asked.output.stopReason).toBe('PARKED');
    await expect(forgetful('unrestricted', 'Spaces.', asked.output.sessionId)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'This agent cannot reopen its sessions; start a new run with the answer in the task.',
    });
  });

  it('parks a turn the host classifies as asking for input', async () => {
    const output = await run(
      'unrestricted',
      script([{ say: 'Should the old endpoint stay?' }]),
      optionsFor([], { classifyCodingTurn: ({ message }) => (message.endsWith('?') ? 'awaiting_input' : undefined) }),
    );
    expect(output).toMatchObject({ stopReason: 'PARKED', finalMessage: 'Should the old endpoint stay?' });
    expect(await coding.getSession('coding.unrestricted', output.sessionId!)).toMatchObject({ status: 'parked' });
  });

  it('refuses a run when the initiator’s token allowance is used up and the caller enforces budgets', async () => {
    const budgets = backend.backend.container.get<SqlTokenBudgetService>(SAAS_SERVICE_TYPES.TokenBudgetService);
    const broke = { kind: 'organization' as const, organizationId: 'org-broke' };
    await budgets.setOverride(broke, A2A_TOKEN_BUDGET_FEATURE_ID, { value: 0 });
    const call = task('unrestricted', script([{ say: 'never' }]), undefined, { organizationId: 'org-broke' });
    await expect(agents.invokeAgent(call, undefined, optionsFor([], { enforceBudget: true }))).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      reason: 'budget_exhausted',
    });
  });

  it('reports an agent that exits mid-turn as unavailable, with the run stored as failed and its session kept', async () => {
    const before = await storedRuns();
    const error = await run('unrestricted', script([{ say: 'about to crash' }, { exit: 3 }])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FrameworkError);
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect((error as Error).message).toBe(
      'The coding agent stopped before the run ended; see the run record and the backend log.',
    );
    expect(await storedRuns()).toBe(before + 1);
    const { rows } = await db().query<{ status: string; failure: string; session_id: string }>(
      "SELECT status, failure, session_id FROM wildo_coding_runs WHERE session_id IS NOT NULL AND status = 'failed'",
    );
    expect(rows).toEqual([
      { status: 'failed', failure: expect.stringMatching(/^agent_exited: /), session_id: expect.any(String) },
    ]);
    expect(await coding.getSession('coding.unrestricted', rows[0]!.session_id)).toMatchObject({
      status: 'idle',
      resumable: true,
    });
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
    const output = await run(
      'continuing',
      script([{ say: 'part' }, { stop: 'max_turn_requests' }]),
      optionsFor(events),
    );
    expect(output).toMatchObject({ stopReason: 'MAX_TURN_REQUESTS', finalMessage: 'part' });
    expect(
      events.filter((e) => e.type === 'auto_continuation').map((e) => e.type === 'auto_continuation' && e.count),
    ).toEqual([1, 2]);
    expect(await coding.getRun(output.runId!)).toMatchObject({ turns: 3, autoContinuations: 2 });
  });
});
