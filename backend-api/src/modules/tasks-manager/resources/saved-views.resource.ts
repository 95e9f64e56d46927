import {
  CORE_APP_ROLES,
  CoreResourceOperation,
  defineResource,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
} from '@wildo/shared-lib';
import { SavedViewSchema, TasksManager_ResourceType } from '@wildo/shared-lib/app';

const API_CALL = ResourceOperationVariantType.API_CALL;
const user = [CORE_APP_ROLES.APP_USER];

/** A user's private saved views of their todos. */
export const savedViewsResource = defineResource({
  type: TasksManager_ResourceType.SAVED_VIEWS,
  displayName: 'Saved views',
  primaryScope: ResourcePrimaryScope.USER,
  schema: SavedViewSchema,
  operationsConfiguration: {
    [CoreResourceOperation.CREATE]: { variants: [{ variantType: API_CALL, isDefault: true, roles: user }] },
    [CoreResourceOperation.READ]: { variants: [{ variantType: API_CALL, isDefault: true, roles: user }] },
    [CoreResourceOperation.UPDATE]: { variants: [{ variantType: API_CALL, isDefault: true, roles: user }] },
    [CoreResourceOperation.DELETE]: { variants: [{ variantType: API_CALL, isDefault: true, roles: user }] },
    [CoreResourceOperation.LIST]: {
      variants: [{ variantType: API_CALL, isDefault: true, roles: user, filters: ['pinned'] }],
    },
  },
});
