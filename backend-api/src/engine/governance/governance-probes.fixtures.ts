import {
  CORE_ORG_ROLES,
  defineResource,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
  z_html,
  z_image,
  z_webPage,
} from '@wildo/shared-lib';
import { z } from 'zod';
import type { BackendApplicationDefinition } from '../bootstrap/backend-domain-module.js';

// Test-only: a travel agency's stays, fronted by a resource whose handlers answer like a backend that over-exposes
// on purpose (the governance gateway's showcase shape): rate sheets and guest lists at every depth, photos and pages
// on foreign hosts, HTML with scripts, a wrong-typed price, failures in the backend's own words.

/** The origins the agency's outputs declare. */
export const IMAGE_ORIGIN = 'https://img.wanderlust.example';
export const PAGE_ORIGIN = 'https://www.wanderlust.example';

/** Field names and values the agency sends that the contracts never declare: none may reach a caller. */
export const AGENCY_LEAKS = {
  fields: ['margin', 'commission', 'passport', 'guests', 'hostContact', 'lastUsedBy', 'affiliateTracking', 'net'],
  values: [/DEMO-PASS-\d{6}/, /partner-photos\.example/, /partner-hotels\.example/, /alert\(/, /db-shard-\d/],
};

const guest = (n: number) => ({ name: `Guest ${n}`, passport: `DEMO-PASS-${String(630_000 + n)}`, phone: '+00 0' });
const rateSheet = (price: number) => ({ net: price * 0.62, margin: price * 0.38, commission: price * 0.12 });

/** What the agency's backend answers, per stay and question; the handlers pass it on as it is. */
export const agency = {
  /** How many times each question reached the agency (a refused call must never add to it). */
  calls: new Map<string, number>(),
  ask<T>(question: string, answer: () => T): T {
    agency.calls.set(question, (agency.calls.get(question) ?? 0) + 1);
    return answer();
  },
  reached(question: string): number {
    return agency.calls.get(question) ?? 0;
  },
};

const amenity = (name: string, fee: number) => ({
  name,
  fee,
  host: { name: 'Amenity host', phone: '+00 111' },
  lastUsedBy: guest(9),
  history: [{ guests: [guest(10)] }],
});

function stayDetails() {
  return {
    stay: {
      id: 'ws-1001',
      name: 'Casa Alfama',
      location: 'Lisbon',
      pricePerNight: 118,
      rating: 4.6,
      ...rateSheet(118),
      description_html: '<p>Casa Alfama</p><img src="https://deals.unknown-host.example/pixel.gif">',
      guests: [guest(1), guest(2)],
      rooms: [
        {
          id: 'ws-1001-dbl',
          name: 'Double Room',
          sleeps: 2,
          pricePerNight: 118,
          ...rateSheet(118),
          guests: [guest(3)],
          amenities: [amenity('Breakfast', 9), amenity('Airport transfer', 25)],
        },
        {
          name: 'Family Room',
          sleeps: 4,
          pricePerNight: 171.1,
          guests: [guest(4), guest(5)],
          amenities: [{ name: 'Cot' }, amenity('Breakfast', 9)],
        },
      ],
    },
  };
}

/** HTML descriptions by stay: the first is clean and passes byte for byte; the others each carry one problem. */
export const DESCRIPTIONS: Record<string, string> = {
  'ws-clean': `<p><b>Casa Alfama</b> sits above the river.</p><img src="${IMAGE_ORIGIN}/ws-1001/1.jpg" alt="The terrace"><p><a href="${PAGE_ORIGIN}/hotels/casa-alfama">Book on our site</a></p>`,
  'ws-script': '<p>Casa Alfama</p><script>alert(document.cookie)</script>',
  'ws-foreign': `<p>Casa Alfama</p><img src="https://cdn.partner-photos.example/pixel.gif" alt="">`,
};

const noSuchStay = { error: 'not found' };

/** The variant every operation of the probes uses; the policies are added per operation. */
const memberVariant = { variantType: ResourceOperationVariantType.API_CALL, roles: [CORE_ORG_ROLES.ORG_MEMBER] };
const exposed = { ...memberVariant, mcp: { exposed: true } };
const StayRef = z.object({ stayId: z.string().min(1).max(40) });

/** The stays of the agency, as an organization's members see them through the framework. */
export const stays = defineResource({
  type: 'stays',
  displayName: 'Stays',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: z.object({ name: z.string().max(100) }),
  customOperations: {
    details: {
      target: 'collection',
      requestSchema: StayRef,
      effect: 'read',
      description: 'One stay with its rooms and what each room offers.',
      responseSchema: z.object({
        stay: z.object({
          name: z.string(),
          location: z.string(),
          pricePerNight: z.number(),
          rating: z.number().optional(),
          rooms: z.array(
            z.object({
              name: z.string(),
              sleeps: z.number().int(),
              pricePerNight: z.number(),
              amenities: z.array(z.object({ name: z.string(), fee: z.number().optional() })),
            }),
          ),
        }),
      }),
    },
    photos: {
      target: 'collection',
      requestSchema: StayRef,
      effect: 'read',
      responseSchema: z.object({ gallery: z.object({ photos: z.array(z_image({ origins: [IMAGE_ORIGIN] })) }) }),
    },
    pages: {
      target: 'collection',
      requestSchema: StayRef,
      effect: 'read',
      responseSchema: z.object({
        pages: z.array(z.object({ name: z.string(), url: z_webPage({ origins: [PAGE_ORIGIN] }).optional() })),
      }),
    },
    description: {
      target: 'collection',
      requestSchema: StayRef,
      effect: 'read',
      responseSchema: z.object({
        name: z.string(),
        description: z_html({ origins: { images: [IMAGE_ORIGIN], pages: [PAGE_ORIGIN] } }).optional(),
      }),
    },
    'room-status': {
      target: 'collection',
      requestSchema: z.object({ propertyId: z.string().min(1).max(40) }),
      effect: 'read',
      responseSchema: z.object({
        rooms: z.array(z.object({ room: z.string(), status: z.enum(['free', 'taken']), pricePerNight: z.number() })),
      }),
    },
    book: {
      target: 'collection',
      requestSchema: z.object({ quoteId: z.string().min(1).max(40) }),
      effect: 'write',
      responseSchema: z.object({ booking: z.object({ bookingId: z.string(), total: z.number() }) }),
      failures: {
        'quote-expired': 'The quote has expired; ask for a new one.',
        'quote-mismatch': 'The quote was issued for another stay, dates or party.',
      },
    },
    cancel: {
      target: 'collection',
      requestSchema: z.object({ bookingId: z.string().min(1).max(40) }),
      effect: 'irreversible',
      responseSchema: z.object({ cancelled: z.boolean() }),
    },
    availability: {
      target: 'collection',
      requestSchema: z.object({ propertyId: z.string().min(1).max(40) }),
      effect: 'read',
      responseSchema: z.object({ availability: z.object({ propertyId: z.string(), roomsFree: z.number().int() }) }),
    },
    'search-classic': {
      target: 'collection',
      requestSchema: z.object({ destination: z.string().max(100) }),
      effect: 'read',
      responseSchema: z.object({ stays: z.array(z.object({ name: z.string() })) }),
    },
    payout: {
      target: 'collection',
      requestSchema: z.object({ amount: z.number().positive() }),
      effect: 'irreversible',
      responseSchema: z.object({ paid: z.boolean() }),
    },
  },
  operationsConfiguration: {
    details: { variants: [exposed] },
    photos: { variants: [exposed] },
    pages: { variants: [exposed] },
    description: { variants: [exposed] },
    'room-status': { variants: [exposed] },
    // Managers book; anyone else, whatever their credential, is not on the list.
    book: {
      variants: [
        {
          ...exposed,
          policies: { authenticated: true, allow: [{ kind: 'role', role: CORE_ORG_ROLES.ORG_MANAGER }] },
        },
      ],
    },
    // Every member may cancel, but never through a machine credential: deny wins over allow.
    cancel: {
      variants: [
        {
          ...exposed,
          policies: { allow: [{ kind: 'role', role: CORE_ORG_ROLES.ORG_MEMBER }], deny: [{ kind: 'machine' }] },
        },
      ],
    },
    availability: { variants: [{ ...exposed, policies: { rateLimit: { points: 3, durationSeconds: 60 } } }] },
    // Switched off: neither listed nor callable (S-12).
    'search-classic': { variants: [{ ...exposed, lifecycle: 'retired' }] },
    // Managers only, each payout with a fresh re-authentication (so REST only: a tool call cannot carry the proof).
    payout: {
      variants: [{ ...memberVariant, roles: [CORE_ORG_ROLES.ORG_MANAGER], requiresReauthentication: true }],
    },
  },
});

/** The stays' handlers: each asks the agency and passes its whole answer on, as a careless integration would. */
export const staysService = stays.implement({
  details: async ({ input }) =>
    agency.ask('details', () => (input.stayId === 'ws-1001' ? stayDetails() : (noSuchStay as never))),
  photos: async () =>
    agency.ask('photos', () => ({
      stayId: 'ws-1001',
      gallery: {
        photos: [
          `${IMAGE_ORIGIN}/ws-1001/1.jpg`,
          `${IMAGE_ORIGIN}/ws-1001/2.jpg`,
          `${IMAGE_ORIGIN}/ws-1001/3.jpg`,
          'https://cdn.partner-photos.example/ws-1001/4.jpg',
          `${IMAGE_ORIGIN}/ws-1001/5.jpg`,
        ],
      },
    })),
  pages: async () =>
    agency.ask('pages', () => ({
      pages: [
        { name: 'Casa Alfama', url: `${PAGE_ORIGIN}/hotels/casa-alfama` },
        { name: 'Casa Alfama Annex (partner)', url: 'https://book.partner-hotels.example/listing/annex' },
      ],
      affiliateTracking: 'https://book.partner-hotels.example/aff?ref=ws-1001',
    })),
  description: async ({ input }) =>
    agency.ask('description', () => ({
      name: 'Casa Alfama',
      description: DESCRIPTIONS[input.stayId],
      ...rateSheet(1),
    })),
  'room-status': async ({ input }) =>
    agency.ask('room-status', () => ({
      propertyId: input.propertyId,
      rooms:
        input.propertyId === 'ws-1003'
          ? // The agency's other system formats the price as text inside an object: a declared field, wrong type.
            [{ room: 'Double Room', status: 'taken', pricePerNight: { amount: '139,00', currency: 'EUR' } }]
          : [{ room: 'Double Room', status: 'free', pricePerNight: 74, ...rateSheet(74) }],
    })) as never,
  book: async ({ input, utils }) =>
    agency.ask('book', () => {
      if (input.quoteId === 'Q-expired') throw utils.errorBuilder.failure('quote-expired');
      // The agency refuses in its own words; only a declared code in its body gets through, with our description.
      if (input.quoteId === 'Q-foreign')
        throw utils.errorBuilder.fromBackendAnswer({
          status: 422,
          body: { error: { code: 'quote-mismatch', message: 'Quote Q-foreign belongs to db-shard-4 tenant 77' } },
        });
      if (input.quoteId === 'Q-down')
        throw utils.errorBuilder.fromBackendAnswer({
          status: 503,
          body: { message: 'upstream db-shard-4 unavailable' },
        });
      if (input.quoteId === 'Q-crash') throw new Error('connection to db-shard-4 reset');
      return { booking: { bookingId: 'B-1', total: 354, guests: [guest(7)], ...rateSheet(354) } };
    }),
  cancel: async () => agency.ask('cancel', () => ({ cancelled: true, refund: { passport: guest(8).passport } })),
  availability: async ({ input }) =>
    agency.ask('availability', () => ({
      availability: { propertyId: input.propertyId, roomsFree: 3, ...rateSheet(118) },
    })),
  'search-classic': async () => agency.ask('search-classic', () => ({ stays: [] })),
  payout: async () => agency.ask('payout', () => ({ paid: true })),
});

/** The governance probes application (test-only). */
export const governanceProbesApplication: BackendApplicationDefinition = {
  name: 'governance-probes',
  modules: [{ name: 'stays', resources: [stays], customServiceImplementations: [staysService] }],
};
