import type { A2aTaskState } from './a2a-protocol.js';

/** A pending approval as the task's `input-required` status carries it (the owner answers with a decision). */
export interface A2aApprovalRequest {
  approvalId: string;
  approvalToken: string;
  functionRef: string;
  arguments: Record<string, unknown>;
  allowArgumentModification: boolean;
  expiresAt: string;
}

/** A task as stored and served, dialect-neutral. */
export interface A2aTask {
  id: string;
  /** The conversation (execution) the task belongs to. */
  contextId: string;
  /** The endpoint audience it was created through: another endpoint does not see it. */
  audience: string;
  skillId: string;
  ownerKey: string;
  organizationId: string | null;
  state: A2aTaskState;
  /** Text of the status message (a failure's client-safe reason, the agent's words at a pause). */
  statusText: string | null;
  approval: A2aApprovalRequest | null;
  /** The agent's reply, set when the task completes. */
  artifactText: string | null;
  /** Whether a push configuration was ever registered (status changes then look up callbacks). */
  pushConfigured: boolean;
  /** Bumped at every status change, so a subscriber can skip what it has already reported. */
  version: number;
  updatedAt: string;
  createdAt: string;
}

/**
 * Who may see a task: its owner, through the endpoint it was created on, in an organization the caller is still in
 * (a person's current memberships; a confined credential's one organization). Tasks of no organization stay the
 * owner's.
 */
export interface A2aTaskScope {
  ownerKey: string;
  audience: string;
  organizationIds: readonly string[];
}

/** What happens to a task, as its followers see it. */
export type A2aTaskUpdate =
  | { kind: 'status'; task: A2aTask; final: boolean }
  | { kind: 'delta'; taskId: string; contextId: string; text: string };
