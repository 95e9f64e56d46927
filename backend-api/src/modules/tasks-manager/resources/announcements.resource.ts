import {
  CORE_APP_ROLES,
  CoreResourceOperation,
  defineResource,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
} from '@wildo/shared-lib';
import { AnnouncementSchema, TasksManager_ResourceType } from '@wildo/shared-lib/app';

const API_CALL = ResourceOperationVariantType.API_CALL;
const admin = [CORE_APP_ROLES.APP_ADMIN];
const user = [CORE_APP_ROLES.APP_USER];

/** Application-wide announcements: application administrators write them, every user reads them. */
export const announcementsResource = defineResource({
  type: TasksManager_ResourceType.ANNOUNCEMENTS,
  displayName: 'Announcements',
  primaryScope: ResourcePrimaryScope.APPLICATION,
  schema: AnnouncementSchema,
  operationsConfiguration: {
    [CoreResourceOperation.CREATE]: { variants: [{ variantType: API_CALL, isDefault: true, roles: admin }] },
    [CoreResourceOperation.READ]: { variants: [{ variantType: API_CALL, isDefault: true, roles: user }] },
    [CoreResourceOperation.UPDATE]: { variants: [{ variantType: API_CALL, isDefault: true, roles: admin }] },
    [CoreResourceOperation.DELETE]: { variants: [{ variantType: API_CALL, isDefault: true, roles: admin }] },
    [CoreResourceOperation.LIST]: {
      variants: [{ variantType: API_CALL, isDefault: true, roles: user, filters: ['severity'] }],
    },
  },
});
