/** Why the outbound-target guard refused a request. The set is closed so callers can branch on it. */
export const OUTBOUND_REFUSAL_REASONS = [
  'invalid_url',
  'scheme_not_allowed',
  'credentials_in_url',
  'port_not_allowed',
  'address_not_public',
  'redirect_refused',
  'too_large',
  'timeout',
  'unreachable',
  'bad_status',
] as const;

/** One of {@link OUTBOUND_REFUSAL_REASONS}. */
export type OutboundRefusalReason = (typeof OUTBOUND_REFUSAL_REASONS)[number];

// Fixed texts: a refusal never carries the URL, the resolved address or anything the peer sent.
const MESSAGES: Record<OutboundRefusalReason, string> = {
  invalid_url: 'The outbound target is not a valid absolute URL.',
  scheme_not_allowed: 'The outbound target must use https.',
  credentials_in_url: 'The outbound target must not embed credentials.',
  port_not_allowed: 'The outbound target uses a port that is not allowed.',
  address_not_public: 'The outbound target does not resolve to a public address.',
  redirect_refused: 'The outbound target answered with a redirect, which is not followed.',
  too_large: 'The outbound target answered with more data than allowed.',
  timeout: 'The outbound target did not answer in time.',
  unreachable: 'The outbound target could not be reached.',
  bad_status: 'The outbound target answered with an unexpected status.',
};

/** Options of {@link OutboundTargetRefused}; `cause` is for logs only. */
export interface OutboundTargetRefusedOptions {
  /** The HTTP status received, for `bad_status` and `redirect_refused`. */
  status?: number;
  cause?: unknown;
}

/** A request refused by the outbound-target guard, before or during delivery. The message is client-safe. */
export class OutboundTargetRefused extends Error {
  override readonly name = 'OutboundTargetRefused';
  readonly reason: OutboundRefusalReason;
  readonly status?: number;

  constructor(reason: OutboundRefusalReason, options: OutboundTargetRefusedOptions = {}) {
    super(MESSAGES[reason], options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    if (options.status !== undefined) this.status = options.status;
  }
}

/** The first {@link OutboundTargetRefused} in an error's `cause` chain (undici wraps connector errors). */
export function findOutboundRefusal(error: unknown): OutboundTargetRefused | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth += 1) {
    if (current instanceof OutboundTargetRefused) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
