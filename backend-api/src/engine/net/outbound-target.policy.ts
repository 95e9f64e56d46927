import { isIpLiteral, isLoopbackAddress, isPublicAddress, unbracketHost } from './address-classification.js';
import { OutboundTargetRefused } from './outbound-target.errors.js';

/** `production` never reaches a non-public address; `development` may reach listed loopback targets. */
export type OutboundMode = 'production' | 'development';

/** A loopback target (URL hostname and port) a development-mode guard may reach, e.g. a local test server. */
export interface DevelopmentTarget {
  host: string;
  port: number;
}

/** The rules a URL and the addresses it resolves to must satisfy. */
export interface OutboundTargetPolicyOptions {
  mode: OutboundMode;
  /** Development only: loopback targets allowed despite not being public. Refused in production. */
  developmentTargets?: readonly DevelopmentTarget[];
  /** Development only: accept `http:` for the {@link developmentTargets}; everything else stays https-only. */
  allowHttpForDevelopmentTargets?: boolean;
  /** When set, only these ports (explicit or scheme default) may be reached; development targets are exempt. */
  allowedPorts?: readonly number[];
}

/** The port a URL connects to, explicit or the scheme's default. */
export function effectivePort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'http:' ? 80 : 443;
}

/** The URL and address rules of the outbound-target guard, separate from any transport. */
export class OutboundTargetPolicy {
  readonly mode: OutboundMode;
  private readonly developmentTargets: ReadonlySet<string>;
  private readonly allowHttpForDevelopmentTargets: boolean;
  private readonly allowedPorts: ReadonlySet<number> | undefined;

  constructor(options: OutboundTargetPolicyOptions) {
    const targets = options.developmentTargets ?? [];
    if (options.mode !== 'production' && options.mode !== 'development') {
      throw new TypeError('OutboundTargetPolicy: mode must be "production" or "development".');
    }
    // Fail at construction rather than silently ignoring an allowance production would never honour.
    if (options.mode === 'production' && (targets.length > 0 || options.allowHttpForDevelopmentTargets)) {
      throw new TypeError('OutboundTargetPolicy: development targets and http are not available in production mode.');
    }
    for (const target of targets) {
      if (!Number.isInteger(target.port) || target.port < 1 || target.port > 65_535) {
        throw new TypeError('OutboundTargetPolicy: a development target needs a port between 1 and 65535.');
      }
    }
    this.mode = options.mode;
    this.developmentTargets = new Set(targets.map((target) => targetKey(target.host, target.port)));
    this.allowHttpForDevelopmentTargets = options.allowHttpForDevelopmentTargets ?? false;
    this.allowedPorts = options.allowedPorts ? new Set(options.allowedPorts) : undefined;
  }

  /** Whether `hostname:port` is one of the development targets (always false in production). */
  isDevelopmentTarget(hostname: string, port: number): boolean {
    return this.mode === 'development' && this.developmentTargets.has(targetKey(hostname, port));
  }

  /** Whether a connection may go to `address`: public unicast, or loopback for a development target. */
  admitsAddress(address: string, developmentTarget: boolean): boolean {
    if (isPublicAddress(address)) return true;
    return developmentTarget && this.mode === 'development' && isLoopbackAddress(address);
  }

  /**
   * Parses and checks a target URL (scheme, credentials, port, literal address) and returns it
   * without its fragment; host names are checked again on the address actually connected to.
   *
   * @throws {OutboundTargetRefused}
   */
  checkUrl(target: string | URL): URL {
    let url: URL;
    try {
      url = new URL(target);
    } catch (error) {
      throw new OutboundTargetRefused('invalid_url', { cause: error });
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutboundTargetRefused('scheme_not_allowed');
    if (url.username !== '' || url.password !== '') throw new OutboundTargetRefused('credentials_in_url');
    const hostname = unbracketHost(url.hostname);
    const port = effectivePort(url);
    const developmentTarget = this.isDevelopmentTarget(hostname, port);
    if (url.protocol === 'http:' && !(developmentTarget && this.allowHttpForDevelopmentTargets)) {
      throw new OutboundTargetRefused('scheme_not_allowed');
    }
    if (this.allowedPorts && !developmentTarget && !this.allowedPorts.has(port)) {
      throw new OutboundTargetRefused('port_not_allowed');
    }
    if (isIpLiteral(hostname) && !this.admitsAddress(hostname, developmentTarget)) {
      throw new OutboundTargetRefused('address_not_public');
    }
    url.hash = '';
    return url;
  }
}

function targetKey(host: string, port: number): string {
  return `${unbracketHost(host).toLowerCase()}|${port}`;
}
