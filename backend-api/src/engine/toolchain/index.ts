// The toolchain: what the `wildo` commands read declarations with. Snapshots of an application's capabilities,
// diff between two of them, doctor's lints, recorded contracts (verify, adopt) and candidates from OpenAPI.
export {
  diffDeclarations,
  reachesOf,
  type ChangeClass,
  type DeclarationChange,
  type DeclarationDiff,
} from './declaration-diff.js';
export {
  snapshotDeclarations,
  type BindingSnapshot,
  type CapabilitySnapshot,
  type DeclarationSnapshot,
  type GovernedField,
} from './declaration-snapshot.js';
export { fieldsOfJsonSchema, fieldsOfZod, type FieldShape } from './schema-fields.js';
export { lintDeclarations, LINT_RULES, type LintContext, type LintFinding, type LintSeverity } from './doctor-rules.js';
export {
  callFailure,
  compareFingerprints,
  fingerprint,
  missingDeclaredValues,
  openContractRunner,
  statusOf,
  type ContractCheck,
  type ContractEntry,
  type ContractFile,
  type ContractRunner,
  type ContractStatus,
  type RecordableCapability,
  type RecordedField,
} from './contracts.js';
export { adoptFields, proposeAdoptions, type AdoptionProposal, type AdoptionRefusal } from './manifest-adoption.js';
export {
  applyDecisions,
  CANDIDATE_EFFECTS,
  openApiCandidates,
  OpenApiDescriptionError,
  type CandidateDecisions,
  type CandidateEffect,
  type CapabilityCandidate,
} from './openapi-candidates.js';
export {
  buildApplicationExposure,
  type ApplicationExposureReport,
  type ConnectorExposure,
} from './connector-exposure.js';
