import type { OutboundRefusalReason } from '../../net/index.js';

/**
 * Why a Client ID Metadata Document client was refused. The set is closed: the OAuth layer maps
 * each reason to `invalid_client` or `invalid_request`.
 */
export const CIMD_RESOLUTION_REASONS = [
  'cimd_disabled',
  'not_allowlisted',
  'invalid_client_id_url',
  'fetch_refused',
  'invalid_document',
  'client_id_mismatch',
  'unsupported_auth_method',
  'redirect_uri_not_registered',
] as const;

/** One of {@link CIMD_RESOLUTION_REASONS}. */
export type CimdResolutionReason = (typeof CIMD_RESOLUTION_REASONS)[number];

// Fixed, client-safe texts: never the document's content, the fetched URL's answer or the allowlist.
const MESSAGES: Record<CimdResolutionReason, string> = {
  cimd_disabled: 'This server does not accept client metadata document clients.',
  not_allowlisted: 'This client is not accepted by this server.',
  invalid_client_id_url: 'The client_id is not a valid client metadata document URL.',
  fetch_refused: 'The client metadata document could not be retrieved.',
  invalid_document: 'The client metadata document is not valid.',
  client_id_mismatch: 'The client metadata document does not describe this client_id.',
  unsupported_auth_method: 'The client metadata document declares an unsupported token endpoint authentication method.',
  redirect_uri_not_registered: 'The redirect_uri is not registered for this client.',
};

/** Options of {@link CimdResolutionError}; everything but `guardReason` is for logs only. */
export interface CimdResolutionErrorOptions {
  /** For `fetch_refused`: the outbound guard's reason. */
  guardReason?: OutboundRefusalReason;
  /** For `invalid_document`: where the document failed (paths, never values). */
  problemPaths?: readonly string[];
  cause?: unknown;
}

/** A client metadata document client that cannot be used. The message is client-safe. */
export class CimdResolutionError extends Error {
  override readonly name = 'CimdResolutionError';
  readonly reason: CimdResolutionReason;
  readonly guardReason?: OutboundRefusalReason;
  readonly problemPaths?: readonly string[];

  constructor(reason: CimdResolutionReason, options: CimdResolutionErrorOptions = {}) {
    super(MESSAGES[reason], options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    if (options.guardReason !== undefined) this.guardReason = options.guardReason;
    if (options.problemPaths !== undefined) this.problemPaths = options.problemPaths;
  }
}
