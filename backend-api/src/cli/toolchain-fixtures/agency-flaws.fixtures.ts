// An agency application start-up accepts but `wildo doctor` does not: one flaw per lint, each on its own capability.
import {
  CORE_APP_ROLES,
  CORE_ORG_ROLES,
  defineResource,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
} from '@wildo/shared-lib';
import { bindResource, defineBackendApplication, restConnector, sqlConnector } from '@wildo/backend-api';
import { z } from 'zod';

const member = {
  variantType: ResourceOperationVariantType.API_CALL,
  roles: [CORE_ORG_ROLES.ORG_MEMBER],
} as const;
const Ref = z.strictObject({ bookingId: z.string().max(40) });
const Status = z.object({ status: z.string() });

export const bookings = defineResource({
  type: 'bookings',
  displayName: 'Bookings',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: z.object({ city: z.string() }),
  customOperations: {
    // irreversible-without-failures
    cancel: { target: 'collection', requestSchema: Ref, responseSchema: Status, effect: 'irreversible' },
    // rate-limit-gap (the second variant)
    find: { target: 'collection', requestSchema: Ref, responseSchema: Status, effect: 'read' },
    // html-without-origins
    page: {
      target: 'collection',
      requestSchema: Ref,
      responseSchema: z.object({ descriptionHtml: z.string() }),
      effect: 'read',
    },
    // rls-organization-missing
    report: { target: 'collection', requestSchema: Ref, responseSchema: Status, effect: 'read' },
  },
  operationsConfiguration: {
    cancel: { variants: [member] },
    find: {
      variants: [
        { ...member, isDefault: true, policies: { rateLimit: { points: 10, durationSeconds: 60 } } },
        { ...member, key: 'unlimited', isDefault: false },
      ],
    },
    page: { variants: [member] },
    report: { variants: [member] },
  },
});

// write-without-authentication: every account shares the notices, and any signed-up account may post one.
export const notices = defineResource({
  type: 'notices',
  displayName: 'Notices',
  primaryScope: ResourcePrimaryScope.APPLICATION,
  schema: z.object({ text: z.string().max(200) }),
  customOperations: {
    post: {
      target: 'collection',
      requestSchema: z.strictObject({ text: z.string().max(200) }),
      responseSchema: Status,
      effect: 'write',
    },
  },
  operationsConfiguration: {
    post: { variants: [{ variantType: ResourceOperationVariantType.API_CALL, roles: [CORE_APP_ROLES.APP_USER] }] },
  },
});

export const noticesService = notices.implement({ post: async () => ({ status: 'posted' }) });

// env-base-url-scheme: the whole base URL, scheme included, comes from the environment.
const agency = restConnector({ name: 'agency', baseUrl: '${AGENCY_URL}' });
const reporting = sqlConnector({ name: 'reporting', dsn: '${REPORTING_DSN}' });
const status = { map: { status: '$.status' } } as const;

export const bookingsBinding = bindResource(bookings, {
  cancel: { connector: agency, method: 'POST', path: '/v1/bookings/{bookingId}/cancel', response: status },
  find: { connector: agency, method: 'GET', path: '/v1/bookings/{bookingId}', response: status },
  page: {
    connector: agency,
    method: 'GET',
    path: '/v1/pages/{bookingId}',
    response: { map: { descriptionHtml: '$.html' } },
  },
  report: {
    connector: reporting,
    sql: 'SELECT status FROM bookings_v WHERE id = $1',
    params: ['bookingId'],
    identity: { 'wildo.principal': 'principal' },
    response: status,
  },
});

export const flawedApplication = defineBackendApplication({
  name: 'flawed-agency',
  modules: [
    { name: 'agency', resources: [bookings, notices], customServiceImplementations: [bookingsBinding, noticesService] },
  ],
});
