// What the travel desk asks the agency and what it shows: every field a model may send or see. The agency's API
// answers with much more (margins, guests' passports, raw HTML, partner links); nothing outside these schemas leaves.
import { z_html, z_image, z_webPage } from '@wildo/shared-lib';
import { z } from 'zod';

/** The agency's own hosts: the only places its photos, pages and marketing HTML may point. */
export const AGENCY_ORIGINS = { images: ['https://img.agency.example'], pages: ['https://www.agency.example'] };

const isoDate = z.iso.date();
const StayId = z.string().min(1).max(64).describe('The id of a stay from the search (ws-1001).');
const Money = z.object({ amount: z.number(), currency: z.string().length(3) });
const Dates = z.strictObject({ from: isoDate, to: isoDate }).describe('Check-in and check-out, ISO dates.');
const Party = z.strictObject({
  adults: z.number().int().min(1).max(12),
  children: z.number().int().min(0).max(12).optional(),
});

/** One stay of a search result. */
export const StaySchema = z.object({
  id: z.string(),
  name: z.string(),
  location: z.string(),
  pricePerNight: z.number().describe('Nightly rate in euro.'),
  rating: z.number().optional(),
  petPolicy: z.string().optional(),
});

/** `find`: stays for a destination, in the agency's own order. */
export const FindInput = z.strictObject({
  destination: z.string().min(1).max(200).describe('A city, or the exact name of one stay.'),
  dates: Dates,
  travelers: Party,
  budget: z.strictObject({ amount: z.number().min(0), currency: z.literal('EUR') }).optional(),
  preferences: z
    .array(z.enum(['pets', 'breakfast', 'family']))
    .max(3)
    .optional(),
});
export const FindOutput = z.object({ stays: z.array(StaySchema), totalMatches: z.number() });

/** `details`: one stay, its rooms and their amenities (declared at every depth). */
export const StayInput = z.strictObject({ stayId: StayId });
export const DetailsOutput = z.object({
  stay: z.object({
    name: z.string(),
    location: z.string(),
    pricePerNight: z.number(),
    rating: z.number().optional(),
    rooms: z.array(
      z.object({
        name: z.string(),
        sleeps: z.number(),
        pricePerNight: z.number(),
        amenities: z.array(z.object({ name: z.string(), fee: z.number().optional() })),
      }),
    ),
  }),
});

/** `photos`, `pages`, `description`: URLs and HTML checked against the agency's own origins. */
export const PhotosOutput = z.object({ photos: z.array(z_image({ origins: AGENCY_ORIGINS.images })) });
export const PagesOutput = z.object({
  pages: z.array(z.object({ name: z.string(), url: z_webPage({ origins: AGENCY_ORIGINS.pages }).optional() })),
});
export const DescriptionOutput = z.object({ html: z_html({ origins: AGENCY_ORIGINS }).optional() });

/** `quote`: a price that holds 15 minutes and books nothing. */
export const QuoteInput = z.strictObject({
  stayId: StayId,
  dates: Dates,
  travelers: Party,
  pets: z.number().int().min(0).max(4).optional(),
});
export const QuoteOutput = z.object({
  quote: z.object({
    quoteId: z.string(),
    stayId: z.string(),
    nights: z.number(),
    total: Money,
    petFee: Money,
    expiresAt: z.iso.datetime(),
  }),
});

/** `book`: books a quoted stay with the caller's own agency token. */
export const BookInput = z.strictObject({
  quoteId: z.string().min(1).max(64),
  stayId: StayId,
  dates: Dates,
  guestName: z.string().min(1).max(120),
});
export const BookOutput = z.object({
  booking: z.object({
    bookingId: z.string(),
    status: z.enum(['confirmed', 'cancelled']),
    total: Money,
    paymentQuote: z.string(),
    payBy: z.iso.datetime(),
  }),
});

/** `cancel` and `pay`: irreversible. */
export const BookingInput = z.strictObject({ bookingId: z.string().min(1).max(64) });
export const CancelOutput = z.object({
  cancellation: z.object({ bookingId: z.string(), status: z.literal('cancelled'), refund: Money }),
});
export const PayInput = z.strictObject({
  bookingId: z.string().min(1).max(64),
  amount: z.strictObject({ amount: z.number().min(0), currency: z.literal('EUR') }),
  paymentQuote: z.string().min(1).max(64),
});
export const PayOutput = z.object({
  payment: z.object({ paymentId: z.string(), status: z.literal('paid'), amount: Money }),
});

/** `availability` and `room-status`: a stay on one date. */
export const DayInput = z.strictObject({ propertyId: StayId, date: isoDate });
export const AvailabilityOutput = z.object({ roomsFree: z.number(), pricePerNight: z.number() });
export const RoomStatusOutput = z.object({
  rooms: z.array(
    z.discriminatedUnion('$row', [
      z.object({
        $row: z.literal('ok'),
        room: z.string(),
        status: z.enum(['free', 'taken']),
        pricePerNight: z.number(),
      }),
      z.object({ $row: z.literal('error'), code: z.string(), message: z.string().optional() }),
    ]),
  ),
});

/** `bookings-by-city`: the caller's organization's bookings in one month, from the reporting database. */
export const MonthInput = z.strictObject({
  month: z
    .string()
    .regex(/^\d{4}-\d{2}$/)
    .describe('The month, YYYY-MM.'),
});
export const CityBookingsOutput = z.object({ cities: z.array(z.object({ city: z.string(), bookings: z.number() })) });
