// A small agency application, version 1: the "before" side of `wildo diff` tests and the clean side of doctor's.
import { CORE_ORG_ROLES, defineResource, ResourceOperationVariantType, ResourcePrimaryScope } from '@wildo/shared-lib';
import { bindResource, defineBackendApplication, restConnector } from '@wildo/backend-api';
import { z } from 'zod';

const member = {
  variantType: ResourceOperationVariantType.API_CALL,
  roles: [CORE_ORG_ROLES.ORG_MEMBER],
  mcp: { exposed: true },
} as const;

export const bookings = defineResource({
  type: 'bookings',
  displayName: 'Bookings',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: z.object({ city: z.string() }),
  customOperations: {
    find: {
      target: 'collection',
      requestSchema: z.strictObject({ city: z.string().max(80) }),
      responseSchema: z.object({ items: z.array(z.object({ id: z.string(), city: z.string(), price: z.number() })) }),
      effect: 'read',
    },
    book: {
      target: 'collection',
      requestSchema: z.strictObject({ quoteId: z.string().max(40) }),
      responseSchema: z.object({ bookingId: z.string(), status: z.string() }),
      effect: 'write',
      failures: { 'quote-expired': 'The quote expired; ask for a new one.' },
    },
    legacy: {
      target: 'collection',
      requestSchema: z.strictObject({}),
      responseSchema: z.object({ note: z.string() }),
      effect: 'read',
    },
  },
  operationsConfiguration: {
    find: { variants: [member] },
    book: {
      variants: [{ ...member, policies: { authenticated: true, rateLimit: { points: 5, durationSeconds: 60 } } }],
    },
    legacy: { variants: [member] },
  },
});

const agency = restConnector({ name: 'agency', baseUrl: 'https://agency.example', timeoutMs: 5_000 });

export const bookingsBinding = bindResource(bookings, {
  find: {
    connector: agency,
    method: 'GET',
    path: '/v1/bookings',
    response: { into: 'items', collection: '$.rows[*]', map: { id: '$.id', city: '$.city', price: '$.price' } },
  },
  book: {
    connector: agency,
    method: 'POST',
    path: '/v1/bookings',
    response: { map: { bookingId: '$.id', status: '$.status' } },
  },
  legacy: { connector: agency, method: 'GET', path: '/v1/legacy', response: { map: { note: '$.note' } } },
});

export const agencyApplication = defineBackendApplication({
  name: 'agency',
  modules: [{ name: 'agency', resources: [bookings], customServiceImplementations: [bookingsBinding] }],
});
