import {
  CORE_APP_ROLES,
  CoreResourceOperation,
  defineResource,
  OAuthConsentGrantSchema,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
} from '@wildo/shared-lib';

/** The resource type of remembered consents. */
export const OAUTH_CONSENT_GRANTS = 'oauth-consent-grants';

const owner = [CORE_APP_ROLES.APP_USER];

/**
 * Remembered consents, owned by the person (user scope: `/api/v1/oauth-consent-grants`). People list and
 * withdraw them; only the consent decision flow creates or widens them (internal variants, never routed).
 */
export const consentGrantsResource = defineResource({
  type: OAUTH_CONSENT_GRANTS,
  displayName: 'Remembered OAuth consents',
  singular: 'oauth-consent-grant',
  primaryScope: ResourcePrimaryScope.USER,
  schema: OAuthConsentGrantSchema,
  operationsConfiguration: {
    [CoreResourceOperation.READ]: {
      variants: [{ variantType: ResourceOperationVariantType.API_CALL, isDefault: true, roles: owner }],
    },
    [CoreResourceOperation.LIST]: {
      variants: [
        {
          variantType: ResourceOperationVariantType.API_CALL,
          isDefault: true,
          roles: owner,
          filters: ['clientId', 'resource'],
        },
      ],
    },
    [CoreResourceOperation.DELETE]: {
      variants: [{ variantType: ResourceOperationVariantType.API_CALL, isDefault: true, roles: owner }],
    },
    [CoreResourceOperation.CREATE]: {
      variants: [{ variantType: ResourceOperationVariantType.INTERNAL, isDefault: true, roles: owner }],
    },
    [CoreResourceOperation.UPDATE]: {
      variants: [{ variantType: ResourceOperationVariantType.INTERNAL, isDefault: true, roles: owner }],
    },
  },
});
