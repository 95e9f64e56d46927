// The agency's hotels, fronted instead of stored: each operation is a call to the agency's REST API. The operations
// are ordinary ones (REST routes, MCP tools, agent tools, one dispatch path), so roles, policies and the input
// contract are judged before the agency is asked, and projection judges what it answered.
import { CORE_ORG_ROLES, defineResource, ResourceOperationVariantType, ResourcePrimaryScope } from '@wildo/shared-lib';
import { bindResource, restConnector } from '@wildo/backend-api';
import {
  AvailabilityOutput,
  BookingInput,
  BookInput,
  BookOutput,
  CancelOutput,
  DayInput,
  DescriptionOutput,
  DetailsOutput,
  PagesOutput,
  PayInput,
  PayOutput,
  PhotosOutput,
  QuoteInput,
  QuoteOutput,
  RoomStatusOutput,
  FindInput,
  FindOutput,
  StayInput,
  StaySchema,
} from './travel-desk.schemas.js';

/** Members call them; MCP clients find them at `/api/v1/mcp/travel-desk`, the travel desk's own tool server. */
const member = {
  variantType: ResourceOperationVariantType.API_CALL,
  roles: [CORE_ORG_ROLES.ORG_MEMBER],
  mcp: { exposed: true, servers: ['travel-desk'] },
} as const;

/** The agency's hotels: find, look up, price and book stays; every answer comes from the agency's API. */
export const hotels = defineResource({
  type: 'hotels',
  displayName: 'Hotels (travel agency)',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: StaySchema,
  customOperations: {
    find: {
      target: 'collection',
      requestSchema: FindInput,
      responseSchema: FindOutput,
      effect: 'read',
      description: "Stays for a destination, dates and party, in the agency's own order.",
    },
    details: {
      target: 'collection',
      requestSchema: StayInput,
      responseSchema: DetailsOutput,
      effect: 'read',
      description: 'One stay with its rooms and their amenities.',
      failures: { 'stay-not-found': 'No stay has this id; search first.' },
    },
    photos: { target: 'collection', requestSchema: StayInput, responseSchema: PhotosOutput, effect: 'read' },
    pages: { target: 'collection', requestSchema: StayInput, responseSchema: PagesOutput, effect: 'read' },
    description: { target: 'collection', requestSchema: StayInput, responseSchema: DescriptionOutput, effect: 'read' },
    quote: {
      target: 'collection',
      requestSchema: QuoteInput,
      responseSchema: QuoteOutput,
      effect: 'write',
      description: 'Prices a stay for 15 minutes; books nothing.',
      failures: { 'pets-not-allowed': 'This stay takes no pets; quote without pets or pick another stay.' },
    },
    book: {
      target: 'collection',
      requestSchema: BookInput,
      responseSchema: BookOutput,
      effect: 'write',
      description: "Books a quoted stay with the caller's own agency token.",
      failures: {
        'quote-expired': 'The quote expired; ask for a new one.',
        'quote-mismatch': 'The quote belongs to another stay or other dates.',
      },
    },
    cancel: {
      target: 'collection',
      requestSchema: BookingInput,
      responseSchema: CancelOutput,
      effect: 'irreversible',
      failures: {
        'booking-not-found': 'No booking has this reference.',
        'already-cancelled': 'This booking was cancelled already.',
      },
    },
    pay: {
      target: 'collection',
      requestSchema: PayInput,
      responseSchema: PayOutput,
      effect: 'irreversible',
      failures: { 'payment-quote-mismatch': 'The payment quote belongs to another booking or amount.' },
    },
    availability: { target: 'collection', requestSchema: DayInput, responseSchema: AvailabilityOutput, effect: 'read' },
    'room-status': { target: 'collection', requestSchema: DayInput, responseSchema: RoomStatusOutput, effect: 'read' },
  },
  operationsConfiguration: {
    find: { variants: [member] },
    details: { variants: [member] },
    photos: { variants: [member] },
    pages: { variants: [member] },
    description: { variants: [member] },
    quote: { variants: [member] },
    // Machines have no agency account of their own: only a person, through an MCP client, books.
    book: { variants: [{ ...member, policies: { authenticated: true, deny: [{ kind: 'machine' }] } }] },
    // A cancellation cannot be undone: a person approves each one, bound to its booking (S-10).
    cancel: { variants: [{ ...member, policies: { deny: [{ kind: 'machine' }] }, approval: { required: true } }] },
    pay: { variants: [{ ...member, policies: { allow: [{ kind: 'role', role: CORE_ORG_ROLES.ORG_MANAGER }] } }] },
    availability: { variants: [{ ...member, policies: { rateLimit: { points: 3, durationSeconds: 60 } } }] },
    'room-status': { variants: [member] },
  },
});

/** The agency's REST API; its URL comes from the environment (unset: these operations answer 503). */
const agency = restConnector({ name: 'travel-agency', baseUrl: '${TRAVEL_AGENCY_API_URL}', timeoutMs: 5_000 });
/** The caller's own agency token: the delegated token their MCP client presented, never one of ours. */
const asCaller = { authorization: 'Bearer ${caller.accessToken}' };
/** The desk's own agency key, from the environment, for what the desk does on its own account (payments). */
const asDesk = { authorization: 'Bearer ${TRAVEL_AGENCY_API_KEY}' };

/** Each operation of `hotels`, bound to its call. */
export const hotelsBinding = bindResource(hotels, {
  find: {
    connector: agency,
    method: 'POST',
    path: '/v1/stays/search',
    response: {
      into: 'stays',
      collection: '$.stays[*]',
      map: {
        id: '$.id',
        name: '$.name',
        location: '$.location',
        pricePerNight: '$.pricePerNight',
        rating: '$.rating',
        petPolicy: '$.petPolicy',
      },
      extract: { totalMatches: '$.totalMatches' },
    },
  },
  details: {
    connector: agency,
    method: 'GET',
    path: '/v1/stays/{stayId}',
    response: {
      into: 'stay',
      map: {
        name: '$.name',
        location: '$.location',
        pricePerNight: '$.pricePerNight',
        rating: '$.rating',
        rooms: '$.rooms',
      },
    },
  },
  photos: {
    connector: agency,
    method: 'GET',
    path: '/v1/stays/{stayId}/photos',
    response: { map: { photos: '$.photos' } },
  },
  pages: {
    connector: agency,
    method: 'GET',
    path: '/v1/stays/{stayId}/pages',
    response: { into: 'pages', collection: '$.pages[*]', map: { name: '$.name', url: '$.url' } },
  },
  description: {
    connector: agency,
    method: 'GET',
    path: '/v1/stays/{stayId}/description',
    response: { map: { html: '$.html' } },
  },
  quote: {
    connector: agency,
    method: 'POST',
    path: '/v1/quotes',
    response: {
      into: 'quote',
      map: {
        quoteId: '$.quoteId',
        stayId: '$.stayId',
        nights: '$.nights',
        total: '$.total',
        petFee: '$.petFee',
        expiresAt: '$.expiresAt',
      },
    },
  },
  book: {
    connector: agency,
    method: 'POST',
    path: '/v1/bookings',
    headers: asCaller,
    response: {
      into: 'booking',
      map: {
        bookingId: '$.bookingId',
        status: '$.status',
        total: '$.total',
        paymentQuote: '$.paymentQuote',
        payBy: '$.payBy',
      },
    },
  },
  cancel: {
    connector: agency,
    method: 'POST',
    path: '/v1/bookings/{bookingId}/cancel',
    headers: asCaller,
    response: { into: 'cancellation', map: { bookingId: '$.bookingId', status: '$.status', refund: '$.refund' } },
  },
  pay: {
    connector: agency,
    method: 'POST',
    path: '/v1/payments',
    headers: asDesk,
    response: { into: 'payment', map: { paymentId: '$.paymentId', status: '$.status', amount: '$.amount' } },
  },
  availability: {
    connector: agency,
    method: 'GET',
    path: '/v1/availability',
    response: { map: { roomsFree: '$.roomsFree', pricePerNight: '$.pricePerNight' } },
  },
  'room-status': {
    connector: agency,
    method: 'GET',
    path: '/v1/room-status',
    response: {
      into: 'rooms',
      collection: '$.rows[*]',
      map: { room: '$.room', status: '$.status', pricePerNight: '$.pricePerNight' },
      onError: { when: { path: '$.error' }, map: { code: '$.error.code', message: '$.error.message' } },
    },
  },
});
