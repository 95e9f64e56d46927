export {
  defineResource,
  type AnyResourceDeclaration,
  type ResourceCustomOperationDefinition,
  type ResourceDeclaration,
  type ResourceOperationConfiguration,
  type ResourceOperationMcpExposure,
  type ResourceOperationOwnerOnly,
  type ResourceOperationRateLimit,
  type ResourceOperationVariant,
  type ResourceRelationship,
} from './resource-declaration.js';
export { ResourceDeclarationSchema, ResourceOperationVariantSchema } from './resource-declaration.schema.js';
export { resourceRecordSchema, resourceSystemFields } from './resource-record.schema.js';
