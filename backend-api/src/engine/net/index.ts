export {
  classifyAddress,
  isIpLiteral,
  isLoopbackAddress,
  isPublicAddress,
  throttleSourceOf,
  unbracketHost,
} from './address-classification.js';
export {
  createGuardedConnector,
  systemHostResolver,
  type GuardedConnectorOptions,
  type HostResolver,
  type ResolvedAddress,
} from './guarded-connector.js';
export {
  findOutboundRefusal,
  OUTBOUND_REFUSAL_REASONS,
  OutboundTargetRefused,
  type OutboundRefusalReason,
  type OutboundTargetRefusedOptions,
} from './outbound-target.errors.js';
export {
  createOutboundFetch,
  DEFAULT_OUTBOUND_LIMITS,
  OutboundTargetGuard,
  type OutboundFetch,
  type OutboundFetcher,
  type OutboundRequestInit,
  type OutboundResponse,
  type OutboundTargetGuardOptions,
} from './outbound-target.guard.js';
export {
  effectivePort,
  OutboundTargetPolicy,
  type DevelopmentTarget,
  type OutboundMode,
  type OutboundTargetPolicyOptions,
} from './outbound-target.policy.js';
