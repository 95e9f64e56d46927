// Governance: what may leave an operation (projection, origins, HTML), who may call it (principal policies), and
// how it fails (declared failures, contract violations). The dispatch path applies it to every operation.
export { contractViolation } from './contract-violation.js';
export { auditGovernedOutputs, auditPolicies, type GovernanceProblem } from './declaration-audit.js';
export { declaredFailure, failureFromBackendAnswer, type BackendAnswer } from './declared-failures.js';
export { checkHtml, type HtmlOrigins } from './html-check.js';
export { absoluteUrl, checkUrl, normalizeOrigin, originSet, type OriginSet, type UrlRefusal } from './origins.js';
export { enforcePrincipalPolicy, matchPrincipal, principalDecision, type PolicyCaller } from './principal-policy.js';
export {
  breachesContract,
  compileProjector,
  newProjectionReport,
  type ProjectionReport,
  type Projector,
} from './projection.js';
export { WITHHELD_REASONS, withheldNote, type WithheldReason, type WithheldValue } from './withheld.js';
