import type { WithheldValue } from '../governance/index.js';
import type { AuthenticatedPrincipal } from '../identity/index.js';
import type { CompiledOperation } from './compiled-resource.types.js';
import type { DispatchSurface } from './execution-context.js';
import type { ContextIds } from './execution-context-creator.service.js';

/** One call to one operation, as a surface received it. */
export interface DispatchRequest {
  operation: CompiledOperation;
  /** The verified caller; null when the request carried no credential. */
  principal: AuthenticatedPrincipal | null;
  surface: DispatchSurface;
  requestId: string;
  contextIds: ContextIds;
  id?: string;
  /** JSON body (CREATE, UPDATE, SEARCH, custom operations). */
  body?: unknown;
  /** Raw query parameters (LIST over REST: strings to decode). */
  query?: Record<string, unknown>;
  /** Typed LIST arguments (LIST through a tool: JSON values). */
  listArguments?: Record<string, unknown>;
  /** The record version the caller last saw (HTTP If-Match). */
  expectedVersion?: number;
  /** A step-up proof (`x-reauth-token`), for operations that require one. */
  reauthToken?: string;
  /** The approval the caller retries with (REST `Approval-Id`, an MCP client's answer), for operations that declare one. */
  approvalId?: string;
  /**
   * A person already approved this exact call in a conversation (an agent's or A2A task's approval pause). Set only
   * by the engine in process, after its own signed approval was decided; no surface reads it from a request.
   */
  conversationApproval?: { approvalId: string };
}

/** A projected result. `version` is the record version for single-record results (HTTP ETag). */
export interface DispatchResult {
  data: unknown;
  nextCursor?: string | null;
  version?: number;
  /** Where projection withheld values, and why (present only when it withheld something); every surface reports it. */
  withheld?: readonly WithheldValue[];
}
