export { isNullableField, ragSourceTextFields, scalarKindOf } from './field-kinds.js';
export { formatPath, isPlausibleIdentifier, reportablePath, type JsonPathSegment } from './input-paths.js';
export {
  declaredNamesText,
  NO_UNDECLARED_FIELDS,
  READ_ONLY_FIELD,
  toInputProblems,
  type InputProblemContext,
} from './input-problems.js';
export {
  firstUnstorablePath,
  isStorableText,
  STORABLE_TEXT_EXPECTATION,
  toStorableValue,
  unstorableTextProblem,
} from './storable-text.js';
export { auditSchema, type SchemaAuditProblem } from './schema-audit.js';
export { buildCreateInputSchema, buildPatchInputSchema, toStrictInput } from './strict-input.js';
export { declaredKeysAt, defOf, isOmittable, shapeOf, unwrapTransparent } from './zod-internals.js';
