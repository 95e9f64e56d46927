import {
  ApplicationApiKeySchema,
  CORE_APP_ROLES,
  CORE_ORG_ROLES,
  CoreResourceOperation,
  defineResource,
  OrganizationApiKeySchema,
  RegenerateApiKeyResponseFields,
  ResourceOperationEffect,
  ResourceOperationRiskLevel,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
  resourceRecordSchema,
  RotateApiKeyResponseFields,
  RotateCredentialRequestSchema,
  type AnyResourceDeclaration,
  type CoreAppRole,
  type CoreOrgRole,
} from '@wildo/shared-lib';
import { z } from 'zod';
import { CREDENTIAL_RESOURCE_TYPES, Credentials_Operations } from './credentials.resource-types.js';

const API_CALL = ResourceOperationVariantType.API_CALL;
type CoreRole = CoreOrgRole | CoreAppRole;

/**
 * `managers` create, list, regenerate and delete keys (never with roles above their own); rotation, which
 * retires a key on a schedule, needs `admin` and a fresh step-up proof.
 */
function apiKeysResource(
  type: string,
  scope: ResourcePrimaryScope,
  schema: z.ZodObject,
  managers: readonly CoreRole[],
  admin: CoreRole,
): AnyResourceDeclaration {
  const { hashedKey: _hidden, ...visible } = schema.shape;
  const record = resourceRecordSchema(z.object(visible), scope);
  const admins = [admin];
  return defineResource({
    type,
    displayName: scope === ResourcePrimaryScope.ORGANIZATIONS ? 'Organization API keys' : 'Application API keys',
    urlSegment: 'api-keys',
    singular: 'api-key',
    primaryScope: scope,
    schema,
    readOnlyFields: ['keyPrefix', 'invalidationDate', 'replacedByKeyId'],
    internalFields: ['hashedKey'],
    responseExtensions: { [CoreResourceOperation.CREATE]: z.object({ plainKey: z.string() }) },
    customOperations: {
      [Credentials_Operations.ROTATE]: {
        target: 'instance',
        // The guide rotates with PUT; POST, the route's first method, keeps working.
        httpMethods: ['PUT', 'POST'],
        requestSchema: RotateCredentialRequestSchema,
        responseSchema: record.extend(RotateApiKeyResponseFields.shape),
        effect: ResourceOperationEffect.WRITE,
        description: 'Replaces the key; the old one keeps working until the given cutoff (immediately when omitted).',
      },
      [Credentials_Operations.REGENERATE]: {
        target: 'instance',
        requestSchema: z.object({}),
        responseSchema: record.extend(RegenerateApiKeyResponseFields.shape),
        effect: ResourceOperationEffect.WRITE,
        description: 'Mints another key with the same name and roles; the old key stays valid.',
      },
    },
    operationsConfiguration: {
      [CoreResourceOperation.CREATE]: {
        variants: [
          { variantType: API_CALL, isDefault: true, roles: managers, riskLevel: ResourceOperationRiskLevel.HIGH },
        ],
      },
      [CoreResourceOperation.READ]: { variants: [{ variantType: API_CALL, isDefault: true, roles: managers }] },
      [CoreResourceOperation.LIST]: { variants: [{ variantType: API_CALL, isDefault: true, roles: managers }] },
      [CoreResourceOperation.DELETE]: {
        variants: [
          { variantType: API_CALL, isDefault: true, roles: managers, riskLevel: ResourceOperationRiskLevel.HIGH },
        ],
      },
      [Credentials_Operations.ROTATE]: {
        variants: [
          {
            variantType: API_CALL,
            isDefault: true,
            roles: admins,
            riskLevel: ResourceOperationRiskLevel.HIGH,
            requiresReauthentication: true,
          },
        ],
      },
      [Credentials_Operations.REGENERATE]: {
        variants: [
          { variantType: API_CALL, isDefault: true, roles: managers, riskLevel: ResourceOperationRiskLevel.HIGH },
        ],
      },
    },
  });
}

/** API keys of an organization, at `/api/v1/organizations/:organizationId/api-keys`. */
export const organizationApiKeysResource = apiKeysResource(
  CREDENTIAL_RESOURCE_TYPES.ORGANIZATION_API_KEYS,
  ResourcePrimaryScope.ORGANIZATIONS,
  OrganizationApiKeySchema,
  [CORE_ORG_ROLES.ORG_MANAGER],
  CORE_ORG_ROLES.ORG_ADMIN,
);

/** API keys of the application, at `/api/v1/api-keys`. */
export const applicationApiKeysResource = apiKeysResource(
  CREDENTIAL_RESOURCE_TYPES.APPLICATION_API_KEYS,
  ResourcePrimaryScope.APPLICATION,
  ApplicationApiKeySchema,
  [CORE_APP_ROLES.APP_ADMIN],
  CORE_APP_ROLES.APP_ADMIN,
);
