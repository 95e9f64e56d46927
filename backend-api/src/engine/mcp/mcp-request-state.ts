import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson, requesterKeyOf } from '../approvals/index.js';
import { FrameworkError } from '../errors/index.js';
import type { AuthenticatedPrincipal } from '../identity/index.js';

/** What a `requestState` of this server carries: the approval it asks about, bound to caller, request and time. */
export interface ApprovalRequestState {
  approvalId: string;
}

/** How long an `input_required` round may take before its `requestState` is refused. */
export const REQUEST_STATE_TTL_MS = 15 * 60 * 1000;

const refused = (message: string) => new FrameworkError('FORBIDDEN', message, { reason: 'approval_invalid' });

/** The digest of one tool call as the client sends it (tool name and arguments, canonical). */
export function toolCallDigest(tool: string, args: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson({ tool, args })).digest('base64url');
}

/**
 * The `requestState` of the 2026-07-28 revision's `input_required` rounds: opaque to the client, an HMAC over the
 * approval id, the caller, a digest of the exact tool call and an expiry. The client echoes it; on return it is
 * refused when forged, expired, presented by another caller or with other arguments. Single use is the approval's:
 * the pending approval is decided once, and a decided one runs once.
 */
export class RequestStateCodec {
  constructor(
    private readonly key: Buffer,
    private readonly now: () => Date,
  ) {}

  encode(
    state: ApprovalRequestState,
    principal: AuthenticatedPrincipal,
    tool: string,
    args: Record<string, unknown>,
  ): string {
    const body = Buffer.from(
      JSON.stringify({
        a: state.approvalId,
        p: requesterKeyOf(principal),
        d: toolCallDigest(tool, args),
        e: this.now().getTime() + REQUEST_STATE_TTL_MS,
      }),
    ).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  decode(
    token: unknown,
    principal: AuthenticatedPrincipal,
    tool: string,
    args: Record<string, unknown>,
  ): ApprovalRequestState {
    if (typeof token !== 'string' || token.length > 2048)
      throw refused('This requestState was not issued by this server.');
    const [body, signature, extra] = token.split('.');
    const expected = Buffer.from(this.sign(body ?? ''));
    const actual = Buffer.from(signature ?? '');
    if (!body || extra !== undefined || expected.length !== actual.length || !timingSafeEqual(expected, actual))
      throw refused('This requestState was not issued by this server.');
    const state = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as {
      a: string;
      p: string;
      d: string;
      e: number;
    };
    if (state.p !== requesterKeyOf(principal)) throw refused('This requestState was issued to another caller.');
    if (state.e <= this.now().getTime()) throw refused('This requestState expired; call the tool again.');
    if (state.d !== toolCallDigest(tool, args))
      throw refused('This requestState was issued for a different call; the arguments must be exactly the same.');
    return { approvalId: state.a };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
