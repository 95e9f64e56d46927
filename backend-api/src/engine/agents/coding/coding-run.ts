import type { AgentCapabilities } from '@agentclientprotocol/sdk';
import {
  CodingAgent_StopReason,
  type AgentCallUsage,
  type AgentClientProtocolExecutionProfile,
  type CodingAgent_ProgressEvent,
} from '@wildo/shared-lib';
import { AcpAgentConnection, AcpProtocolError, type OpenedSession } from './coding-acp.connection.js';
import { CodingAgentProcess, type CodingAgentSpawn } from './coding-agent.process.js';
import type { CodingTurnClassifier, CodingTurnVerdict } from '../runtime/index.js';
import type { CodingWorkspace } from './coding-agent.types.js';
import { CodingFiles } from './coding-files.js';
import { CodingLocationGuard } from './coding-location.guard.js';
import { clientMethodsOf } from './coding-permission.policy.js';
import { tail, type CodingRunEvents } from './coding-run.events.js';
import { CodingTerminals } from './coding-terminals.js';
import { AgentExitedError, CodingTurn, type TurnEnd } from './coding-turn.js';

/** What the runner sends the agent when it continues a turn on its own. */
export const AUTO_CONTINUATION_PROMPT = 'Continue with the task from where you stopped.';

/** Everything one run needs, checked by dispatch. */
export interface CodingRunPlan {
  launch: CodingAgentSpawn;
  profile: AgentClientProtocolExecutionProfile;
  workspace: CodingWorkspace;
  prompt: string;
  /** The stored session a continuation reopens. */
  continuation?: { sessionId: string };
  /** The vendor model to select when the session offers a model option. */
  model?: string;
  signal?: AbortSignal;
  classifyTurn?: CodingTurnClassifier;
  events: CodingRunEvents;
  timing: { stopGraceMs: number; cancelGraceMs: number };
}

/** How a run ended. */
export interface CodingRunOutcome {
  finalMessage: string;
  stopReason: CodingAgent_StopReason;
  sessionId: string;
  /** Whether the agent can reopen the session later (it declares `session/resume` or `session/load`). */
  resumable: boolean;
  /** The question of a parked run. */
  question?: string;
  turns: number;
  autoContinuations: number;
  usage?: AgentCallUsage;
}

/** Why a run could not complete: what to log, and the session (if one was opened) to release. */
export class CodingRunError extends Error {
  override readonly name = 'CodingRunError';
  constructor(
    readonly kind: 'spawn_failed' | 'protocol' | 'not_resumable' | 'agent_exited' | 'agent_error',
    message: string,
    readonly details: { stderr?: string; sessionId?: string; resumable?: boolean; cause?: unknown } = {},
  ) {
    super(message, { cause: details.cause });
  }
}

/** The default classification: stopped for length is continued, anything else is finished. */
function defaultVerdict(stopReason: CodingAgent_StopReason): CodingTurnVerdict {
  return stopReason === CodingAgent_StopReason.MAX_TOKENS || stopReason === CodingAgent_StopReason.MAX_TURN_REQUESTS
    ? 'continue'
    : 'finished';
}

function addUsage(total: AgentCallUsage | undefined, more: AgentCallUsage | undefined): AgentCallUsage | undefined {
  if (!more) return total;
  if (!total) return { ...more };
  return {
    inputTokens: total.inputTokens + more.inputTokens,
    outputTokens: total.outputTokens + more.outputTokens,
    totalTokens: total.totalTokens + more.totalTokens,
  };
}

/** How the agent can reopen a session: `session/resume` (no replay) is preferred to `session/load`. */
function reopenVia(capabilities: AgentCapabilities | undefined): 'resume' | 'load' | undefined {
  if (capabilities?.sessionCapabilities?.resume) return 'resume';
  return capabilities?.loadSession === true ? 'load' : undefined;
}

/**
 * One coding-agent run: starts the provider's agent as a subprocess, negotiates the protocol, opens (or reopens)
 * the session, sends the task, answers the agent's calls through the run's guarded callbacks, continues
 * automatically while the profile allows, enforces the turn timeout and the host's cancellation, and ends the
 * subprocess with its process group whatever happens.
 */
export class CodingRun {
  private readonly guard: CodingLocationGuard;
  private readonly files: CodingFiles;
  private readonly terminals: CodingTerminals;
  private turn: CodingTurn | undefined;
  private sessionId: string | undefined;
  private resumable: boolean | undefined;

  constructor(private readonly plan: CodingRunPlan) {
    const offers = clientMethodsOf(plan.profile.permissionCeiling);
    this.guard = new CodingLocationGuard(plan.workspace.root, plan.workspace.isPermitted);
    this.files = new CodingFiles(this.guard, offers.writeTextFile, plan.events);
    this.terminals = new CodingTerminals(offers.terminal, this.guard, plan.launch.env, plan.events);
  }

  /** Runs the task to its end (finished, parked, timed out, cancelled) or throws a {@link CodingRunError}. */
  async execute(): Promise<CodingRunOutcome> {
    const agent = this.start();
    const aborted = () => this.turn?.cancel('aborted');
    this.plan.signal?.addEventListener('abort', aborted, { once: true });
    let killed = false;
    try {
      const connection = this.connect(agent);
      const init = await this.beforeExit(
        agent,
        connection.initialize(clientMethodsOf(this.plan.profile.permissionCeiling)),
      );
      const resumable = reopenVia(init.agentCapabilities) !== undefined;
      this.resumable = resumable;
      const session = await this.beforeExit(agent, this.openSession(connection, init.agentCapabilities));
      this.sessionId = session.sessionId;
      this.plan.events.emit({ type: 'session', sessionId: session.sessionId, mode: session.mode });
      if (this.plan.model) await this.beforeExit(agent, connection.selectModel(session, this.plan.model));
      const outcome = await this.turns(agent, connection, session.sessionId);
      killed =
        outcome.stopReason === CodingAgent_StopReason.CANCELLED ||
        outcome.stopReason === CodingAgent_StopReason.TURN_TIMEOUT;
      return { ...outcome, sessionId: session.sessionId, resumable };
    } catch (error) {
      throw this.failure(error, agent);
    } finally {
      this.plan.signal?.removeEventListener('abort', aborted);
      await this.terminals.releaseAll();
      // A cancelled or timed-out agent is ended at once; one that finished gets to exit on its own first.
      await (killed || this.plan.signal?.aborted ? agent.kill() : agent.stop(this.plan.timing.stopGraceMs));
    }
  }

  private start(): CodingAgentProcess {
    return CodingAgentProcess.spawn(this.plan.launch);
  }

  private connect(agent: CodingAgentProcess): AcpAgentConnection {
    const offers = clientMethodsOf(this.plan.profile.permissionCeiling);
    return AcpAgentConnection.open(agent.stream, {
      files: this.files,
      terminals: this.terminals,
      offers,
      permission: (params) => this.activeTurn().permission(params),
      elicitation: (params) => this.turn?.elicitation(params) ?? Promise.resolve({ action: 'cancel' }),
      update: (notification) => this.turn?.update(notification),
    });
  }

  private activeTurn(): CodingTurn {
    if (this.turn) return this.turn;
    // Outside a turn (while a session loads) nothing may be admitted: the request is answered cancelled, and recorded.
    const idle = new CodingTurn(
      this.sessionId ?? '',
      this.plan.profile.permissionCeiling,
      this.guard,
      this.plan.events,
      () => Promise.resolve(),
    );
    idle.cancel('aborted');
    return idle;
  }

  private async openSession(
    connection: AcpAgentConnection,
    capabilities: AgentCapabilities | undefined,
  ): Promise<OpenedSession> {
    const { continuation } = this.plan;
    const cwd = this.guard.workspaceRoot;
    if (!continuation) return connection.openSession(cwd);
    const via = reopenVia(capabilities);
    if (!via) {
      throw new CodingRunError(
        'not_resumable',
        'the agent declares neither session/resume nor session/load, so the session cannot be continued; start a new run',
      );
    }
    return connection.openSession(cwd, { sessionId: continuation.sessionId, via });
  }

  /** The turn loop: one prompt, then automatic continuations while the classification and the profile allow. */
  private async turns(agent: CodingAgentProcess, connection: AcpAgentConnection, sessionId: string) {
    const { profile, events } = this.plan;
    let prompt = this.plan.prompt;
    let autoContinuations = 0;
    let usage: AgentCallUsage | undefined;
    for (let turn = 1; ; turn++) {
      const end = await this.runTurn(agent, connection, sessionId, prompt);
      usage = addUsage(usage, end.usage);
      events.emit({ type: 'turn_end', turn, stopReason: end.stopReason, message: tail(end.text) });
      const result = { turns: turn, autoContinuations, ...(usage ? { usage } : {}) };
      if (end.cancelled === 'parked') return { ...result, ...this.parked(end.question ?? end.text) };
      if (end.cancelled) return { ...result, finalMessage: end.text, stopReason: end.stopReason };
      const summary = { turn, stopReason: end.stopReason, message: end.text };
      const verdict = this.plan.classifyTurn?.(summary) ?? defaultVerdict(end.stopReason);
      if (verdict === 'awaiting_input') {
        events.emit({ type: 'awaiting_input', question: tail(end.text) });
        return { ...result, ...this.parked(end.text) };
      }
      if (verdict !== 'continue' || autoContinuations >= profile.maxAutoContinuations) {
        return { ...result, finalMessage: end.text, stopReason: end.stopReason };
      }
      autoContinuations++;
      events.emit({ type: 'auto_continuation', count: autoContinuations, max: profile.maxAutoContinuations });
      prompt = AUTO_CONTINUATION_PROMPT;
    }
  }

  private parked(question: string) {
    return { finalMessage: question, stopReason: CodingAgent_StopReason.PARKED, question };
  }

  /** One prompt turn under the profile's turn timeout and the host's abort signal. */
  private async runTurn(
    agent: CodingAgentProcess,
    connection: AcpAgentConnection,
    sessionId: string,
    prompt: string,
  ): Promise<TurnEnd> {
    const { profile, events, timing } = this.plan;
    // Aborted between turns: the next prompt is not sent at all.
    if (this.plan.signal?.aborted)
      return { stopReason: CodingAgent_StopReason.CANCELLED, text: '', cancelled: 'aborted' };
    const turn = new CodingTurn(sessionId, profile.permissionCeiling, this.guard, events, () =>
      connection.cancel(sessionId),
    );
    this.turn = turn;
    const timer = setTimeout(() => turn.cancel('timeout'), profile.turnTimeoutMs);
    try {
      return await turn.settle(connection.prompt(sessionId, prompt), agent.exited, timing.cancelGraceMs);
    } finally {
      clearTimeout(timer);
      this.turn = undefined;
    }
  }

  /** Waits for `step` unless the subprocess exits (or the host aborts) first. */
  private async beforeExit<T>(agent: CodingAgentProcess, step: Promise<T>): Promise<T> {
    const signal = this.plan.signal;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<never>((_, reject) => {
      void agent.exited.then(() =>
        reject(new CodingRunError('agent_exited', 'the coding agent exited before the session started')),
      );
      onAbort = () => reject(new AbortedBeforeTurn());
      if (signal?.aborted) onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    stopped.catch(() => undefined);
    try {
      return await Promise.race([step, stopped]);
    } finally {
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  private failure(error: unknown, agent: CodingAgentProcess): Error {
    if (error instanceof AbortedBeforeTurn) return error;
    const details = {
      stderr: agent.stderrTail,
      ...(this.sessionId ? { sessionId: this.sessionId } : {}),
      ...(this.resumable !== undefined ? { resumable: this.resumable } : {}),
      cause: error,
    };
    if (agent.pid === undefined)
      return new CodingRunError('spawn_failed', 'the coding agent could not be started', details);
    if (error instanceof CodingRunError)
      return new CodingRunError(error.kind, error.message, { ...details, cause: error.cause });
    if (error instanceof AcpProtocolError) return new CodingRunError('protocol', error.message, details);
    if (agent.hasExited || error instanceof AgentExitedError)
      return new CodingRunError('agent_exited', 'the coding agent exited before the run ended', details);
    return new CodingRunError('agent_error', `the coding agent answered with an error: ${describe(error)}`, details);
  }
}

/** The host aborted before the first turn started: the run ends cancelled, with nothing to report. */
export class AbortedBeforeTurn extends Error {
  override readonly name = 'AbortedBeforeTurn';
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300);
}

/** The record entries of a run, for callers that only need them (tests, pages). */
export type CodingRunRecord = readonly CodingAgent_ProgressEvent[];
