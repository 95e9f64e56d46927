import type { WithheldValue } from '../../governance/index.js';
import type { AuthenticatedPrincipal } from '../../identity/index.js';
import type { DispatchSurface } from '../../resources/index.js';
import type { FunctionToolExecutionContext } from './function-tool.types.js';
import { createToolCaller, type ToolDispatchPath } from './tool-caller.js';

/** The conversation a tool call belongs to, as the turn knows it. */
export interface ToolCallSite {
  principal: AuthenticatedPrincipal;
  organizationId?: string;
  executionId: string;
  requestId: string;
  signal?: AbortSignal;
  /** The surface its dispatches are charged to (default `tool`). */
  surface?: DispatchSurface;
  /** Told what projection withheld from each dispatch of the call, so the model is told as MCP and REST clients are. */
  onWithheld?: (withheld: readonly WithheldValue[]) => void;
  /** The person approved this call in the conversation (its approval's id). */
  conversationApproval?: { approvalId: string };
}

/** A deep-frozen copy: what a tool holds cannot change the identity anything else dispatches with. */
function frozenCopy<T>(value: T): T {
  const copy = structuredClone(value);
  const freeze = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || Object.isFrozen(node)) return;
    Object.freeze(node);
    for (const child of Object.values(node)) freeze(child);
  };
  freeze(copy);
  return copy;
}

/**
 * The context one tool call receives: the conversation's identity (a frozen copy, also the one its caller
 * dispatches with) and a {@link ToolCaller} bound to it. Nothing else of the engine is handed out.
 */
export function createToolExecutionContext(path: ToolDispatchPath, site: ToolCallSite): FunctionToolExecutionContext {
  const auth = frozenCopy(site.principal);
  const identity = {
    principal: auth,
    requestId: site.requestId,
    ...(site.organizationId ? { organizationId: site.organizationId } : {}),
    ...(site.surface ? { surface: site.surface } : {}),
    ...(site.onWithheld ? { onWithheld: site.onWithheld } : {}),
    ...(site.conversationApproval ? { conversationApproval: { ...site.conversationApproval } } : {}),
  };
  return {
    ...createToolCaller(path, identity),
    auth,
    ...(site.organizationId ? { organizationId: site.organizationId } : {}),
    executionId: site.executionId,
    requestId: site.requestId,
    ...(site.signal ? { signal: site.signal } : {}),
  };
}
