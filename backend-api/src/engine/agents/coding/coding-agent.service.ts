import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  AgentClientProtocol_HostConfigurationInheritance,
  CodingAgent_StopReason,
  type AgentClientProtocolExecutionProfile,
  type CodingAgent_RunTaskOutput,
} from '@wildo/shared-lib';
import type { Clock } from '../../container/index.js';
import type { RuntimeConfiguration } from '../../config/index.js';
import { FrameworkError } from '../../errors/index.js';
import type { Logger } from '../../logging/index.js';
import type { AgentCallRecorder, CodingAgentArm, CodingDispatch, CodingDispatchResult } from '../runtime/index.js';
import { admitBudget, type TokenBudgetService } from '../budgets/index.js';
import { subprocessEnvironment } from './coding-agent.process.js';
import { admitCredential, admitLauncher, admitProfile, admitWorkspace, ownerKeyOf } from './coding-agent.dispatch.js';
import { DEFAULT_CODING_TIMING, type CodingAgentLauncher, type CodingAgentSettings } from './coding-agent.types.js';
import { BUILT_IN_CODING_AGENT_LAUNCHERS } from './coding-launchers.js';
import { AbortedBeforeTurn, CodingRun, CodingRunError, type CodingRunOutcome } from './coding-run.js';
import { CodingRunEvents } from './coding-run.events.js';
import type { CodingRunStore, StoredCodingRun, StoredCodingSession } from './coding-run.store.js';

/** What the coding runtime needs; built by the coding module. */
export interface CodingAgentServiceDeps {
  runtime: RuntimeConfiguration | undefined;
  store: CodingRunStore;
  recorder: AgentCallRecorder;
  budgets: TokenBudgetService;
  clock: Clock;
  logger: Logger;
  /** The backend's environment, where an API_KEY profile's credential is read. */
  env: Readonly<Record<string, string | undefined>>;
  settings?: CodingAgentSettings;
}

/** How long a session claimed by a run stays claimed without news before another run may take it over. */
function staleAfterMs(profile: AgentClientProtocolExecutionProfile): number {
  return profile.turnTimeoutMs * (profile.maxAutoContinuations + 1) + 60_000;
}

/**
 * The coding arm of `invokeAgent`: admits the dispatch (workspace, predicate, profile and environment, launcher and
 * ceiling, credential, budget, the continued session), runs the agent ({@link CodingRun}), stores the run with its
 * record and the session's new state, and reports the run to the trace sinks and the budget like any model call.
 */
export class CodingAgentService implements CodingAgentArm {
  private readonly launchers: Readonly<Record<string, CodingAgentLauncher>>;
  private readonly timing: { stopGraceMs: number; cancelGraceMs: number };

  constructor(private readonly deps: CodingAgentServiceDeps) {
    this.launchers = { ...BUILT_IN_CODING_AGENT_LAUNCHERS, ...deps.settings?.launchers };
    this.timing = { ...DEFAULT_CODING_TIMING, ...pickDefined(deps.settings) };
  }

  /** Runs one coding dispatch to its end; refusals happen before anything starts or is charged. */
  async dispatch(request: CodingDispatch): Promise<CodingDispatchResult> {
    const { agent, input, options } = request;
    const config = agent.config;
    const workspace = await admitWorkspace(options);
    if (!this.deps.runtime) throw new FrameworkError('SERVICE_UNAVAILABLE', 'No runtime configuration is loaded.');
    const profile = admitProfile(this.deps.runtime, config);
    const launcher = admitLauncher(this.launchers, config, profile);
    const credential = admitCredential(this.deps.env, config, profile);
    if (options.enforceBudget) await admitBudget(this.deps.budgets, request.tenant, this.deps.clock.now());
    const run = {
      id: randomUUID(),
      agentRef: agent.declaration.ref,
      ownerKey: ownerKeyOf(request.invocation.initiator),
    };
    const continued = input.continuationOfSessionId
      ? await this.claim(run, input.continuationOfSessionId, workspace.root, profile)
      : undefined;
    await this.deps.store.start({
      ...run,
      profileRef: config.executionProfileRef,
      ...(continued ? { sessionId: continued.sessionId } : {}),
    });
    const events = new CodingRunEvents(run.id, this.deps.clock, this.deps.logger, options.onCodingProgress);
    const startedAt = performance.now();
    const configDir = await this.configDirectory(launcher, profile);
    try {
      const outcome = await new CodingRun({
        launch: {
          command: launcher.command,
          args: launcher.args ?? [],
          cwd: workspace.root,
          env: subprocessEnvironment(this.deps.settings?.hostEnv ?? process.env, launcher.passEnv ?? [], {
            ...launcher.env,
            ...credential,
            ...(launcher.modelEnvVar && config.model ? { [launcher.modelEnvVar]: agent.vendorModelId } : {}),
            ...(configDir && launcher.configDirEnvVar ? { [launcher.configDirEnvVar]: configDir } : {}),
          }),
        },
        profile,
        workspace,
        prompt: input.prompt,
        ...(continued ? { continuation: { sessionId: continued.sessionId } } : {}),
        ...(config.model ? { model: agent.vendorModelId } : {}),
        ...(options.codingSessionAbortSignal ? { signal: options.codingSessionAbortSignal } : {}),
        ...(options.classifyCodingTurn ? { classifyTurn: options.classifyCodingTurn } : {}),
        events,
        timing: this.timing,
      }).execute();
      return await this.ended(request, run, { outcome, events, profile, workspaceRoot: workspace.root, startedAt });
    } catch (error) {
      return await this.failed(request, run, { error, events, continued, workspaceRoot: workspace.root, startedAt });
    } finally {
      if (configDir) await rm(configDir, { recursive: true, force: true });
    }
  }

  /** A stored run with its record (permission requests and answers, file and terminal calls, turns). */
  getRun(runId: string): Promise<StoredCodingRun | undefined> {
    return this.deps.store.run(runId);
  }

  /** A stored session of an agent. */
  getSession(agentRef: string, sessionId: string): Promise<StoredCodingSession | undefined> {
    return this.deps.store.session(agentRef, sessionId);
  }

  private async claim(
    run: { id: string; agentRef: string; ownerKey: string },
    sessionId: string,
    workspaceRoot: string,
    profile: AgentClientProtocolExecutionProfile,
  ): Promise<StoredCodingSession> {
    const stored = await this.deps.store.session(run.agentRef, sessionId);
    if (stored && stored.ownerKey === run.ownerKey && stored.workspaceRoot !== workspaceRoot) {
      throw new FrameworkError('BAD_REQUEST', 'A coding session continues in the workspace it was opened in.');
    }
    const claim = await this.deps.store.claim({ ...run, sessionId }, run.id, staleAfterMs(profile));
    if (claim.ok) return claim.session;
    const refusals = {
      not_found: ['NOT_FOUND', 'No coding session with this id is open for this agent and initiator.'],
      busy: ['CONFLICT', 'Another run of this coding session is in progress; wait for it to end.'],
      expired: ['CONFLICT', 'The parked run waited longer than its awaiting-input time; start a new run.'],
      not_resumable: [
        'CONFLICT',
        'This agent cannot reopen its sessions; start a new run with the answer in the task.',
      ],
    } as const;
    const [code, message] = refusals[claim.reason];
    throw new FrameworkError(code, message);
  }

  /** An empty configuration directory for a profile that inherits no host configuration. */
  private async configDirectory(
    launcher: CodingAgentLauncher,
    profile: AgentClientProtocolExecutionProfile,
  ): Promise<string | undefined> {
    if (!launcher.configDirEnvVar) return undefined;
    if (profile.hostConfigurationInheritance !== AgentClientProtocol_HostConfigurationInheritance.NONE)
      return undefined;
    return mkdtemp(path.join(os.tmpdir(), 'wildo-coding-config-'));
  }

  private async ended(
    request: CodingDispatch,
    run: { id: string; agentRef: string; ownerKey: string },
    done: {
      outcome: CodingRunOutcome;
      events: CodingRunEvents;
      profile: AgentClientProtocolExecutionProfile;
      workspaceRoot: string;
      startedAt: number;
    },
  ): Promise<CodingDispatchResult> {
    const { outcome, profile } = done;
    const parked = outcome.stopReason === CodingAgent_StopReason.PARKED;
    const now = this.deps.clock.now();
    await this.deps.store.finish(run, {
      status: 'ended',
      stopReason: outcome.stopReason,
      finalMessage: outcome.finalMessage,
      turns: outcome.turns,
      autoContinuations: outcome.autoContinuations,
      ...(outcome.usage ? { usage: outcome.usage } : {}),
      record: done.events.record(),
      session: {
        sessionId: outcome.sessionId,
        workspaceRoot: done.workspaceRoot,
        status: parked ? 'parked' : 'idle',
        resumable: outcome.resumable,
        ...(parked
          ? {
              question: outcome.question ?? '',
              awaitingInputUntil: new Date(now.getTime() + profile.awaitingInputTtlMs),
            }
          : {}),
      },
    });
    const output: CodingAgent_RunTaskOutput = {
      finalMessage: outcome.finalMessage,
      stopReason: outcome.stopReason,
      sessionId: outcome.sessionId,
      runId: run.id,
    };
    await this.trace(request, done.startedAt, { outcome: 'success', output, usage: outcome.usage });
    return { output, ...(outcome.usage ? { usage: outcome.usage } : {}) };
  }

  private async failed(
    request: CodingDispatch,
    run: { id: string; agentRef: string; ownerKey: string },
    failure: {
      error: unknown;
      events: CodingRunEvents;
      continued: StoredCodingSession | undefined;
      workspaceRoot: string;
      startedAt: number;
    },
  ): Promise<CodingDispatchResult> {
    const { error, events, continued } = failure;
    if (error instanceof AbortedBeforeTurn) {
      // Cancelled before the first turn: nothing ran, the session (if any) is as it was.
      if (continued) await this.deps.store.release(run.agentRef, continued.sessionId);
      await this.deps.store.finish(run, {
        status: 'ended',
        stopReason: CodingAgent_StopReason.CANCELLED,
        finalMessage: '',
        turns: 0,
        autoContinuations: 0,
        record: events.record(),
      });
      const output = {
        finalMessage: '',
        stopReason: CodingAgent_StopReason.CANCELLED,
        runId: run.id,
        ...(continued ? { sessionId: continued.sessionId } : {}),
      };
      await this.trace(request, failure.startedAt, { outcome: 'success', output });
      return { output };
    }
    const runError =
      error instanceof CodingRunError ? error : new CodingRunError('agent_error', String(error), { cause: error });
    this.deps.logger.error('coding agent run failed', {
      runId: run.id,
      agentRef: run.agentRef,
      kind: runError.kind,
      error: runError.message,
      stderr: runError.details.stderr,
    });
    const sessionId = runError.details.sessionId ?? continued?.sessionId;
    await this.deps.store.finish(run, {
      status: 'failed',
      turns: 0,
      autoContinuations: 0,
      record: events.record(),
      failure: `${runError.kind}: ${runError.message}`,
      ...(sessionId
        ? {
            session: {
              sessionId,
              workspaceRoot: failure.workspaceRoot,
              status: 'idle',
              resumable: runError.details.resumable ?? continued?.resumable ?? false,
            },
          }
        : {}),
    });
    await this.trace(request, failure.startedAt, { outcome: 'error', error: runError });
    throw new FrameworkError('SERVICE_UNAVAILABLE', failureMessage(runError), {
      retryAfterSeconds: 1,
      details: { runId: run.id, kind: runError.kind },
      cause: runError,
    });
  }

  private async trace(
    request: CodingDispatch,
    startedAt: number,
    result: {
      outcome: 'success' | 'error';
      output?: CodingAgent_RunTaskOutput;
      usage?: CodingRunOutcome['usage'];
      error?: unknown;
    },
  ): Promise<void> {
    await this.deps.recorder.record({
      agent: request.agent,
      startedAt,
      outcome: result.outcome,
      tenant: request.tenant,
      input: request.input,
      ...(result.output ? { output: result.output, finishReason: result.output.stopReason } : {}),
      ...(result.usage ? { usage: result.usage } : {}),
      ...(result.error !== undefined ? { error: result.error } : {}),
      ...(request.traceContext ? { traceContext: request.traceContext } : {}),
    });
  }
}

/** What a client is told when a run fails (the log has the agent's own output). */
function failureMessage(error: CodingRunError): string {
  switch (error.kind) {
    case 'spawn_failed':
      return 'The coding agent could not be started; check that its provider’s agent is installed on this host.';
    case 'not_resumable':
      return 'The coding agent cannot reopen this session; start a new run.';
    case 'protocol':
      return 'The coding agent speaks an Agent Client Protocol version this runner does not.';
    default:
      return 'The coding agent stopped before the run ended; see the run record and the backend log.';
  }
}

function pickDefined(settings: CodingAgentSettings | undefined): { stopGraceMs?: number; cancelGraceMs?: number } {
  const out: { stopGraceMs?: number; cancelGraceMs?: number } = {};
  if (settings?.stopGraceMs !== undefined) out.stopGraceMs = settings.stopGraceMs;
  if (settings?.cancelGraceMs !== undefined) out.cancelGraceMs = settings.cancelGraceMs;
  return out;
}
