// The agency application, version 2: the "after" side of `wildo diff` tests. Against version 1: `find` needs a new
// input and retypes a price, `book` became irreversible and refuses machines, `legacy` is gone, `quote` is new.
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
      requestSchema: z.strictObject({ city: z.string().max(80), guests: z.number().int() }),
      responseSchema: z.object({
        items: z.array(
          z.object({ id: z.string(), city: z.string(), price: z.string(), rating: z.number().optional() }),
        ),
      }),
      effect: 'read',
    },
    book: {
      target: 'collection',
      requestSchema: z.strictObject({ quoteId: z.string().max(40), note: z.string().max(200).optional() }),
      responseSchema: z.object({ bookingId: z.string(), status: z.string() }),
      effect: 'irreversible',
      failures: {
        'quote-expired': 'The quote expired; ask for a new one.',
        'card-declined': 'The card was declined.',
      },
    },
    quote: {
      target: 'collection',
      requestSchema: z.strictObject({ city: z.string().max(80) }),
      responseSchema: z.object({ quoteId: z.string(), total: z.number() }),
      effect: 'read',
    },
  },
  operationsConfiguration: {
    find: { variants: [member] },
    book: {
      variants: [
        {
          ...member,
          policies: { authenticated: true, deny: [{ kind: 'machine' }], rateLimit: { points: 5, durationSeconds: 60 } },
        },
      ],
    },
    quote: { variants: [member] },
  },
});

const agency = restConnector({ name: 'agency', baseUrl: 'https://agency.example', timeoutMs: 5_000 });

export const bookingsBinding = bindResource(bookings, {
  find: {
    connector: agency,
    method: 'GET',
    path: '/v1/bookings',
    response: {
      into: 'items',
      collection: '$.rows[*]',
      map: { id: '$.id', city: '$.city', price: '$.price', rating: '$.rating' },
    },
  },
  book: {
    connector: agency,
    method: 'POST',
    path: '/v1/bookings',
    response: { map: { bookingId: '$.id', status: '$.status' } },
  },
  quote: {
    connector: agency,
    method: 'POST',
    path: '/v1/quotes',
    response: { map: { quoteId: '$.id', total: '$.total' } },
  },
});

export const agencyApplication = defineBackendApplication({
  name: 'agency',
  modules: [{ name: 'agency', resources: [bookings], customServiceImplementations: [bookingsBinding] }],
});
