export { isNullableField, ragSourceTextFields, scalarKindOf } from './field-kinds.js';
export { formatPath, toInputProblems } from './input-problems.js';
export { compileProjector, type Projector } from './projection.js';
export { auditSchema, type SchemaAuditProblem } from './schema-audit.js';
export { buildCreateInputSchema, buildPatchInputSchema, toStrictInput } from './strict-input.js';
export { defOf, isOmittable, shapeOf, unwrapTransparent } from './zod-internals.js';
