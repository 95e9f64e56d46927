import {
  ApplicationOAuthClientSchema,
  CORE_APP_ROLES,
  CORE_ORG_ROLES,
  CoreResourceOperation,
  defineResource,
  OrganizationOAuthClientSchema,
  ResourceOperationEffect,
  ResourceOperationRiskLevel,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
  resourceRecordSchema,
  RotateCredentialRequestSchema,
  RotateOAuthClientResponseFields,
  type AnyResourceDeclaration,
  type CoreAppRole,
  type CoreOrgRole,
  type TypedResourceOperationVariant,
} from '@wildo/shared-lib';
import { z } from 'zod';
import { CREDENTIAL_RESOURCE_TYPES, Credentials_Operations } from './credentials.resource-types.js';

const API_CALL = ResourceOperationVariantType.API_CALL;
type CoreRole = CoreOrgRole | CoreAppRole;
/** The variant key of the CREATE used by dynamic client registration (never routed). */
export const DYNAMIC_REGISTRATION_VARIANT = 'dynamic-registration';

function oauthClientsResource(
  type: string,
  scope: ResourcePrimaryScope,
  schema: z.ZodObject,
  admin: CoreRole,
): AnyResourceDeclaration {
  const { secrets: _secrets, registrationAccessTokenHash: _token, ...visible } = schema.shape;
  const record = resourceRecordSchema(z.object(visible), scope);
  const admins = [admin];
  const createVariants: TypedResourceOperationVariant<ResourcePrimaryScope, z.ZodObject>[] = [
    { variantType: API_CALL, isDefault: true, roles: admins, riskLevel: ResourceOperationRiskLevel.HIGH },
  ];
  if (scope === ResourcePrimaryScope.APPLICATION) {
    // Self-registration (RFC 7591) creates application clients through the engine, never through a route.
    createVariants.push({
      variantType: ResourceOperationVariantType.INTERNAL,
      key: DYNAMIC_REGISTRATION_VARIANT,
      roles: [CORE_APP_ROLES.APP_USER],
    });
  }
  return defineResource({
    type,
    displayName:
      scope === ResourcePrimaryScope.ORGANIZATIONS ? 'Organization OAuth clients' : 'Application OAuth clients',
    urlSegment: 'oauth-clients',
    singular: 'oauth-client',
    primaryScope: scope,
    schema,
    readOnlyFields: ['origin', 'secretPrefix'],
    internalFields: ['secrets', 'registrationAccessTokenHash'],
    // A public client (`token_endpoint_auth_method: none`) has no secret: the answer carries one only for the others.
    responseExtensions: { [CoreResourceOperation.CREATE]: z.object({ plainSecret: z.string().optional() }) },
    customOperations: {
      [Credentials_Operations.ROTATE]: {
        target: 'instance',
        // The guide rotates with PUT; POST, the route's first method, keeps working.
        httpMethods: ['PUT', 'POST'],
        requestSchema: RotateCredentialRequestSchema,
        responseSchema: record.extend(RotateOAuthClientResponseFields.shape),
        effect: ResourceOperationEffect.WRITE,
        description:
          'Issues a new client secret; older secrets stop obtaining tokens at the cutoff (immediately when omitted).',
      },
      [Credentials_Operations.REGENERATE]: {
        target: 'instance',
        requestSchema: z.object({}),
        responseSchema: record.extend(RotateOAuthClientResponseFields.shape),
        effect: ResourceOperationEffect.WRITE,
        description: 'Issues another client secret; older secrets keep working.',
      },
    },
    operationsConfiguration: {
      [CoreResourceOperation.CREATE]: { variants: createVariants },
      [CoreResourceOperation.READ]: { variants: [{ variantType: API_CALL, isDefault: true, roles: admins }] },
      [CoreResourceOperation.LIST]: { variants: [{ variantType: API_CALL, isDefault: true, roles: admins }] },
      [CoreResourceOperation.DELETE]: {
        variants: [
          { variantType: API_CALL, isDefault: true, roles: admins, riskLevel: ResourceOperationRiskLevel.HIGH },
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
          { variantType: API_CALL, isDefault: true, roles: admins, riskLevel: ResourceOperationRiskLevel.HIGH },
        ],
      },
    },
  });
}

/** OAuth clients of an organization, at `/api/v1/organizations/:organizationId/oauth-clients`. */
export const organizationOAuthClientsResource = oauthClientsResource(
  CREDENTIAL_RESOURCE_TYPES.ORGANIZATION_OAUTH_CLIENTS,
  ResourcePrimaryScope.ORGANIZATIONS,
  OrganizationOAuthClientSchema,
  CORE_ORG_ROLES.ORG_ADMIN,
);

/** OAuth clients of the application (and self-registered ones), at `/api/v1/oauth-clients`. */
export const applicationOAuthClientsResource = oauthClientsResource(
  CREDENTIAL_RESOURCE_TYPES.APPLICATION_OAUTH_CLIENTS,
  ResourcePrimaryScope.APPLICATION,
  ApplicationOAuthClientSchema,
  CORE_APP_ROLES.APP_ADMIN,
);
