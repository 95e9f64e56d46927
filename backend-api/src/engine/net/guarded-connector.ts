import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { buildConnector } from 'undici';
import { isIpLiteral, unbracketHost } from './address-classification.js';
import { OutboundTargetRefused } from './outbound-target.errors.js';
import type { OutboundTargetPolicy } from './outbound-target.policy.js';

/** One address a host name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all of its addresses; tests inject one to map names without real DNS. */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The system resolver (`getaddrinfo`, as Node's own connections use), returning every address. */
export const systemHostResolver: HostResolver = async (hostname) => {
  const addresses = await dnsLookup(hostname, { all: true, verbatim: true });
  return addresses.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

/** Options of {@link createGuardedConnector}. */
export interface GuardedConnectorOptions {
  policy: OutboundTargetPolicy;
  resolveHost: HostResolver;
  connectTimeoutMs: number;
  /** Extra PEM certificates trusted in addition to Node's bundled roots. */
  trustedCertificates?: readonly string[];
}

/**
 * An undici connector that admits a connection only to addresses the policy accepts. Host names
 * are checked inside `lookup`, so the addresses checked are the ones the socket connects to (no
 * gap between check and use, no DNS rebinding); IP literals skip `lookup` in Node, so they are
 * checked here before connecting.
 */
export function createGuardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const { policy, resolveHost } = options;
  const tlsOptions = options.trustedCertificates?.length
    ? { ca: [...rootCertificates, ...options.trustedCertificates] }
    : {};
  const strict = buildConnector({
    ...tlsOptions,
    timeout: options.connectTimeoutMs,
    lookup: guardedLookup(resolveHost, (address) => policy.admitsAddress(address, false)),
  });
  const development = buildConnector({
    ...tlsOptions,
    timeout: options.connectTimeoutMs,
    lookup: guardedLookup(resolveHost, (address) => policy.admitsAddress(address, true)),
  });

  return (connectOptions, callback) => {
    const hostname = unbracketHost(connectOptions.hostname).toLowerCase();
    const port = connectOptions.port ? Number(connectOptions.port) : connectOptions.protocol === 'http:' ? 80 : 443;
    const developmentTarget = policy.isDevelopmentTarget(hostname, port);
    if (isIpLiteral(hostname) && !policy.admitsAddress(hostname, developmentTarget)) {
      callback(new OutboundTargetRefused('address_not_public'), null);
      return;
    }
    (developmentTarget ? development : strict)(connectOptions, callback);
  };
}

/** A `net` lookup that resolves every address and refuses the host if ANY of them is not admitted. */
function guardedLookup(resolveHost: HostResolver, admits: (address: string) => boolean): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    const fail = (error: Error) => callback(error, '', 0);
    resolveHost(hostname).then(
      (resolved) => {
        if (resolved.length === 0) return fail(new OutboundTargetRefused('unreachable'));
        // All, not just the one picked: a mixed answer is how rebinding attacks hide a private address.
        if (!resolved.every((entry) => admits(entry.address)))
          return fail(new OutboundTargetRefused('address_not_public'));
        const wanted =
          options.family === 4 || options.family === 6
            ? resolved.filter((entry) => entry.family === options.family)
            : resolved;
        const first = wanted[0];
        if (first === undefined) return fail(new OutboundTargetRefused('unreachable'));
        if (options.all)
          return callback(
            null,
            wanted.map((entry): LookupAddress => ({ address: entry.address, family: entry.family })),
          );
        return callback(null, first.address, first.family);
      },
      (error: unknown) => fail(new OutboundTargetRefused('unreachable', { cause: error })),
    );
  };
}
