import type { CimdConfig } from '@wildo/shared-lib';
import { systemClock, type Clock } from '../../container/index.js';
import type { Logger } from '../../logging/index.js';
import { firstUnstorablePath, reportablePath } from '../../resources/schema/index.js';
import {
  OutboundTargetGuard,
  OutboundTargetRefused,
  type OutboundFetcher,
  type OutboundTargetGuardOptions,
} from '../../net/index.js';
import { BoundedExpiringCache } from './bounded-expiring-cache.js';
import type { CimdClient } from './cimd-client.js';
import { admitCimdClientId } from './cimd-client-id.js';
import { CimdDocumentSchema } from './cimd-document.schema.js';
import { CimdResolutionError, type CimdResolutionErrorOptions, type CimdResolutionReason } from './cimd.errors.js';

/** Fetch bounds and cache lifetimes (seconds) of a {@link CimdResolver}. */
export interface CimdResolverLimits {
  maxBytes: number;
  timeoutMs: number;
  /** Lifetime of a document served without `Cache-Control: max-age`. */
  defaultTtlSeconds: number;
  minTtlSeconds: number;
  maxTtlSeconds: number;
  /** Lifetime of a failure, to absorb floods of the same bad client_id. */
  negativeTtlSeconds: number;
  /** Most documents (and, separately, failures) held in memory. */
  maxEntries: number;
}

/** Bounds of a resolver: 64 KiB and 5 s per fetch; cache 5 min by default, `max-age` honoured within 60 s to 24 h. */
export const DEFAULT_CIMD_LIMITS: Readonly<CimdResolverLimits> = {
  maxBytes: 65_536,
  timeoutMs: 5_000,
  defaultTtlSeconds: 300,
  minTtlSeconds: 60,
  maxTtlSeconds: 86_400,
  negativeTtlSeconds: 30,
  maxEntries: 1_000,
};

/** Options of a {@link CimdResolver}. */
export interface CimdResolverOptions {
  config: CimdConfig;
  /** A shared guard to fetch through; the resolver's own bounds still apply per request. */
  fetcher?: OutboundFetcher;
  /** Options for a guard the resolver builds and owns when no `fetcher` is given; defaults to production mode. */
  guard?: OutboundTargetGuardOptions;
  clock?: Clock;
  logger?: Logger;
  limits?: Partial<CimdResolverLimits>;
}

interface CachedFailure {
  reason: CimdResolutionReason;
  options: CimdResolutionErrorOptions;
}

/**
 * Resolves a client_id that is a Client ID Metadata Document URL into a public client: trust policy,
 * outbound-target guard, document validation, then a bounded in-memory cache.
 *
 * @example
 * const resolver = new CimdResolver({ config: auth.cimd });
 * const client = await resolver.resolve('https://tool.example/client.json');
 * assertRedirectAllowed(client, redirectUri);
 */
export class CimdResolver {
  private readonly config: CimdConfig;
  private readonly fetcher: OutboundFetcher;
  private readonly ownedGuard: OutboundTargetGuard | undefined;
  private readonly clock: Clock;
  private readonly logger: Logger | undefined;
  private readonly limits: CimdResolverLimits;
  private readonly resolved: BoundedExpiringCache<CimdClient>;
  private readonly failed: BoundedExpiringCache<CachedFailure>;
  private readonly inFlight = new Map<string, Promise<CimdClient>>();

  constructor(options: CimdResolverOptions) {
    this.config = options.config;
    this.limits = { ...DEFAULT_CIMD_LIMITS, ...options.limits };
    if (options.fetcher) {
      this.fetcher = options.fetcher;
    } else {
      this.ownedGuard = new OutboundTargetGuard({
        mode: 'production',
        maxBytes: this.limits.maxBytes,
        connectTimeoutMs: this.limits.timeoutMs,
        totalTimeoutMs: this.limits.timeoutMs,
        ...options.guard,
      });
      this.fetcher = this.ownedGuard;
    }
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger;
    this.resolved = new BoundedExpiringCache(this.limits.maxEntries);
    this.failed = new BoundedExpiringCache(this.limits.maxEntries);
  }

  /**
   * The client described by the document at `clientId`.
   *
   * @throws {CimdResolutionError} with a closed `reason`
   */
  async resolve(clientId: string): Promise<CimdClient> {
    // Policy first and uncached, so a configuration change or an allowlist removal is never masked by the cache.
    admitCimdClientId(clientId, this.config);
    const now = this.clock.now().getTime();
    const cached = this.resolved.get(clientId, now);
    if (cached) return cached;
    const failure = this.failed.get(clientId, now);
    if (failure) throw new CimdResolutionError(failure.reason, failure.options);

    const pending = this.inFlight.get(clientId);
    if (pending) return pending;
    const fetching = this.fetchAndCache(clientId).finally(() => this.inFlight.delete(clientId));
    this.inFlight.set(clientId, fetching);
    return fetching;
  }

  /** Closes the guard the resolver built for itself (a shared `fetcher` is left to its owner). */
  async close(): Promise<void> {
    await this.ownedGuard?.close();
  }

  private async fetchAndCache(clientId: string): Promise<CimdClient> {
    try {
      const { client, ttlSeconds } = await this.fetchClient(clientId);
      this.resolved.set(clientId, client, this.clock.now().getTime() + ttlSeconds * 1_000);
      this.failed.delete(clientId);
      return client;
    } catch (error) {
      const refusal =
        error instanceof CimdResolutionError
          ? error
          : new CimdResolutionError('fetch_refused', { guardReason: 'unreachable', cause: error });
      const options: CimdResolutionErrorOptions = {};
      if (refusal.guardReason) options.guardReason = refusal.guardReason;
      if (refusal.problemPaths) options.problemPaths = refusal.problemPaths;
      // Short on purpose: it only absorbs floods of the same bad client_id, it must not outlive a fix.
      this.failed.set(
        clientId,
        { reason: refusal.reason, options },
        this.clock.now().getTime() + this.limits.negativeTtlSeconds * 1_000,
      );
      this.logger?.warn('client metadata document refused', {
        reason: refusal.reason,
        guardReason: refusal.guardReason,
        problemPaths: refusal.problemPaths,
        host: new URL(clientId).host,
      });
      throw refusal;
    }
  }

  private async fetchClient(clientId: string): Promise<{ client: CimdClient; ttlSeconds: number }> {
    let response;
    try {
      response = await this.fetcher.fetch(clientId, {
        headers: { accept: 'application/json' },
        maxBytes: this.limits.maxBytes,
        timeoutMs: this.limits.timeoutMs,
      });
    } catch (error) {
      const guardReason = error instanceof OutboundTargetRefused ? error.reason : 'unreachable';
      throw new CimdResolutionError('fetch_refused', { guardReason, cause: error });
    }
    return {
      client: toClient(clientId, response.text),
      ttlSeconds: this.ttlSeconds(response.headers['cache-control']),
    };
  }

  private ttlSeconds(cacheControl: string | undefined): number {
    const match = cacheControl === undefined ? null : /(?:^|[\s,])max-age\s*=\s*"?(\d{1,10})"?/i.exec(cacheControl);
    // no-store / no-cache still get the minimum lifetime: re-fetching per request would let one client drive our traffic.
    const requested = match?.[1] === undefined ? this.limits.defaultTtlSeconds : Number(match[1]);
    return Math.min(this.limits.maxTtlSeconds, Math.max(this.limits.minTtlSeconds, requested));
  }
}

/** Validates a fetched document for `clientId` and turns it into a {@link CimdClient}. */
function toClient(clientId: string, text: string): CimdClient {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new CimdResolutionError('invalid_document', { cause: error });
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new CimdResolutionError('invalid_document');
  if ((raw as { client_id?: unknown }).client_id !== clientId) throw new CimdResolutionError('client_id_mismatch');
  // The client's name is stored with a remembered consent: text the database cannot store is refused here.
  const unstorable = firstUnstorablePath(raw);
  if (unstorable)
    throw new CimdResolutionError('invalid_document', { problemPaths: [reportablePath(unstorable, '(document)')] });
  const parsed = CimdDocumentSchema.safeParse(raw);
  if (!parsed.success) {
    const problemPaths = parsed.error.issues
      .slice(0, 16)
      .map((issue) => issue.path.map(String).join('.') || '(document)');
    throw new CimdResolutionError('invalid_document', { problemPaths });
  }
  const document = parsed.data;
  // Anything but `none` names a credential this server would not check: refuse rather than treat the client as public.
  if ((document.token_endpoint_auth_method ?? 'none') !== 'none')
    throw new CimdResolutionError('unsupported_auth_method');
  const client: CimdClient = {
    clientId,
    clientName: document.client_name,
    redirectUris: [...new Set(document.redirect_uris)],
  };
  if (document.client_uri !== undefined) client.clientUri = document.client_uri;
  if (document.logo_uri !== undefined) client.logoUri = document.logo_uri;
  return client;
}
