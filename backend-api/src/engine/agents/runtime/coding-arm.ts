import type {
  AgentCallTraceEmission,
  AgentCallUsage,
  CodingAgent_ProgressEvent,
  CodingAgent_RunTaskOutput,
  CodingAgent_StopReason,
  CodingAgentConfig,
  FlowsActors_Agent_Invocation,
} from '@wildo/shared-lib';
import type { BudgetTenant } from '../budgets/index.js';
import type { ResolvedAgent } from '../systems/index.js';

// The coding arm of `invokeAgent` as the runtime sees it: the options a caller passes and the port the coding-agent
// room (`agents/coding`, above this one) fills. The runtime hands coding agents over without knowing how they run.

/** What a host may decide about an ended turn: it finished, the agent asks a person, or the runner should continue. */
export type CodingTurnVerdict = 'finished' | 'awaiting_input' | 'continue';

/** An ended turn, as the host's classifier sees it. */
export interface CodingTurnSummary {
  /** The turn's number in this run, from 1. */
  turn: number;
  stopReason: CodingAgent_StopReason;
  /** The agent's text of the turn. */
  message: string;
}

/**
 * Classifies an ended turn (undefined keeps the default: a turn stopped by `MAX_TOKENS` or `MAX_TURN_REQUESTS` is
 * continued while `maxAutoContinuations` allows, any other is finished). `awaiting_input` parks the run with the
 * turn's message as the question; `continue` sends the agent an automatic continuation.
 */
export type CodingTurnClassifier = (turn: CodingTurnSummary) => CodingTurnVerdict | undefined;

/**
 * The coding-agent options of `invokeAgent` (its third argument): the trusted workspace, which locations the run
 * may touch, how to cancel its session, and (omitted from the guide's reduced excerpt) the host's event collection
 * and turn classification. A coding agent requires `workspaceRootPath` and `isPermittedCodingLocation`; a language
 * or image agent refuses all of them.
 */
export interface CodingAgentInvocationOptions {
  /** The workspace the coding agent works in (an absolute path): its working directory and the outer bound of every location. */
  workspaceRootPath?: string;
  /** Whether the run may touch `location` (an absolute path inside the workspace); checked on every file, permission and terminal call. */
  isPermittedCodingLocation?: (location: string) => boolean;
  /** Aborts the coding session: the turn is cancelled through the protocol and the subprocess and its children end. */
  codingSessionAbortSignal?: AbortSignal;
  /** Receives the run's progress events as they happen (not the chat token channel). */
  onCodingProgress?: (event: CodingAgent_ProgressEvent) => void;
  /** Decides what each ended turn means (see {@link CodingTurnClassifier}). */
  classifyCodingTurn?: CodingTurnClassifier;
}

/** The names of {@link CodingAgentInvocationOptions}, which a language or image agent refuses. */
export const CODING_AGENT_OPTIONS = [
  'workspaceRootPath',
  'isPermittedCodingLocation',
  'codingSessionAbortSignal',
  'onCodingProgress',
  'classifyCodingTurn',
] as const satisfies readonly (keyof CodingAgentInvocationOptions)[];

/** One coding dispatch as `invokeAgent` hands it over (the input already checked against the contract). */
export interface CodingDispatch {
  agent: ResolvedAgent & { config: CodingAgentConfig };
  invocation: FlowsActors_Agent_Invocation;
  input: { prompt: string; continuationOfSessionId?: string };
  options: CodingAgentInvocationOptions & { enforceBudget?: boolean };
  tenant: BudgetTenant;
  traceContext?: AgentCallTraceEmission['traceContext'];
}

/** What a coding dispatch returns to `invokeAgent`. */
export interface CodingDispatchResult {
  output: CodingAgent_RunTaskOutput;
  usage?: AgentCallUsage;
}

/** The coding arm: runs one dispatch to its end (refusals before anything starts or is charged). */
export interface CodingAgentArm {
  dispatch(request: CodingDispatch): Promise<CodingDispatchResult>;
}

/** The container token the coding-agent module binds its {@link CodingAgentArm} to. */
export const CODING_AGENT_ARM = Symbol.for('wildo.agents.CodingAgentArm');
