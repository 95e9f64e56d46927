import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AGENCY_IMAGE_ORIGIN,
  AGENCY_SITE_ORIGIN,
  guest,
  marketingPage,
  PARTNER_ORIGIN,
  rateSheet,
  roomsOf,
  STAYS,
  stayById,
  trackedDescription,
  type Stay,
} from './agency-data.js';

/** One request the agency received: enough for a test to prove what reached it (and what did not). */
export interface AgencyRequest {
  /** `GET /v1/stays/:id`: the route, with its parameters as placeholders. */
  route: string;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  body: unknown;
}

/** Rewrites an answer before it is sent (tests add fields at random depths); the status stays. */
export type AnswerRewrite = (route: string, body: unknown) => unknown;

/** A running synthetic agency. */
export interface SyntheticAgency {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Every request received since start (or the last {@link reset}), oldest first. */
  readonly requests: readonly AgencyRequest[];
  /** How many requests reached `route` (every route when omitted). */
  count(route?: string): number;
  /** The last request to `route`. */
  last(route: string): AgencyRequest | undefined;
  /** Forgets the requests received so far. */
  reset(): void;
  /** Rewrites every answer until set to undefined. */
  rewrite: AnswerRewrite | undefined;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Options of {@link startSyntheticAgency}. */
export interface SyntheticAgencyOptions {
  /** The agency's clock (quotes expire 15 minutes after issue). */
  now?: () => Date;
  /** Port to listen on (0: any free one). */
  port?: number;
  /** Keep no request log (for the benchmark: the log would grow without bound). */
  unrecorded?: boolean;
  /** Answer this many milliseconds after a request arrives: a remote API's response time (default 0). */
  latencyMs?: number;
}

const QUOTE_MINUTES = 15;

class AgencyAnswer {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

const fail = (status: number, code: string, message: string) =>
  new AgencyAnswer(status, {
    error: { code, message, trace: `agency-internal-${status}-7731`, host: 'db-3.agency.internal' },
  });

function quoteIdOf(stayId: string, issuedAt: number, nights: number, pets: number): string {
  const hash = createHash('sha256').update(`${stayId}|${issuedAt}|${nights}|${pets}`).digest('hex').slice(0, 8);
  return `Q-${issuedAt.toString(36)}-${hash}`;
}

function nightsBetween(dates: unknown): number | undefined {
  const { from, to } = (dates ?? {}) as { from?: unknown; to?: unknown };
  if (typeof from !== 'string' || typeof to !== 'string') return undefined;
  const nights = (Date.parse(to) - Date.parse(from)) / 86_400_000;
  return Number.isInteger(nights) && nights >= 1 && nights <= 30 ? nights : undefined;
}

const money = (amount: number) => ({ amount, currency: 'EUR' });

function stayRow(stay: Stay) {
  return {
    id: stay.id,
    name: stay.name,
    location: stay.city,
    pricePerNight: stay.pricePerNight,
    rating: stay.rating,
    petPolicy: stay.petPolicy,
    currency: 'EUR',
    ...rateSheet(stay.pricePerNight),
    description_html: trackedDescription(stay),
    hostContact: { name: 'Front desk (invented)', phone: '+00 000 000 000' },
  };
}

type Handler = (request: AgencyRequest, params: string[], now: () => Date) => AgencyAnswer;

function search(request: AgencyRequest): AgencyAnswer {
  const body = (request.body ?? {}) as { destination?: unknown; budget?: { amount?: unknown }; preferences?: unknown };
  const destination = typeof body.destination === 'string' ? body.destination.split(',')[0]!.trim().toLowerCase() : '';
  const ceiling = typeof body.budget?.amount === 'number' ? body.budget.amount : Infinity;
  const wanted = new Set(Array.isArray(body.preferences) ? body.preferences.map(String) : []);
  const stays = STAYS.filter(
    (stay) =>
      (stay.city.toLowerCase() === destination || stay.name.toLowerCase() === destination) &&
      stay.pricePerNight <= ceiling &&
      (!['pets', 'cat', 'dog'].some((tag) => wanted.has(tag)) || stay.acceptsPets) &&
      (!wanted.has('breakfast') || stay.breakfast),
  ).map(stayRow);
  return new AgencyAnswer(200, { stays, totalMatches: stays.length, searchedBy: 'agency-index-7' });
}

/** One stay in detail; ws-1004's price arrives in the wrong type (a formatted amount where a number belongs). */
function details(_request: AgencyRequest, [id]: string[]): AgencyAnswer {
  const stay = stayById(id ?? '');
  if (!stay) return fail(404, 'stay-not-found', `No stay ${id} in table stays_v2`);
  const answer = { ...stayRow(stay), guests: [guest(1), guest(2)], rooms: roomsOf(stay) };
  if (stay.id === 'ws-1004')
    return new AgencyAnswer(200, { ...answer, pricePerNight: { amount: '96,00', currency: 'EUR' } });
  return new AgencyAnswer(200, answer);
}

function photos(_request: AgencyRequest, [id]: string[]): AgencyAnswer {
  if (!stayById(id ?? '')) return fail(404, 'stay-not-found', `No stay ${id}`);
  const own = (n: number) => `${AGENCY_IMAGE_ORIGIN}/${id}/${n}.jpg`;
  return new AgencyAnswer(200, {
    stayId: id,
    photos: [own(1), own(2), own(3), `${PARTNER_ORIGIN}/${id}/4.jpg`, own(5)],
  });
}

function pages(_request: AgencyRequest, [id]: string[]): AgencyAnswer {
  const stay = stayById(id ?? '');
  if (!stay) return fail(404, 'stay-not-found', `No stay ${id}`);
  const slug = stay.name.toLowerCase().replace(/[^a-z]+/g, '-');
  return new AgencyAnswer(200, {
    pages: [
      { name: stay.name, url: `${AGENCY_SITE_ORIGIN}/hotels/${slug}` },
      { name: `${stay.name} Annex (partner listing)`, url: `https://book.partner-hotels.example/listing/${slug}` },
    ],
    affiliateTracking: `https://book.partner-hotels.example/aff?ref=${id}`,
  });
}

function description(_request: AgencyRequest, [id]: string[]): AgencyAnswer {
  const stay = stayById(id ?? '');
  if (!stay) return fail(404, 'stay-not-found', `No stay ${id}`);
  return new AgencyAnswer(200, { stayId: id, html: marketingPage(stay), editor: guest(4) });
}

function quote(request: AgencyRequest, _params: string[], now: () => Date): AgencyAnswer {
  const body = (request.body ?? {}) as { stayId?: unknown; dates?: unknown; pets?: unknown };
  const stay = stayById(typeof body.stayId === 'string' ? body.stayId : '');
  const nights = nightsBetween(body.dates);
  if (!stay || nights === undefined) return fail(400, 'bad-request', 'stayId and dates are required');
  const pets = typeof body.pets === 'number' ? body.pets : 0;
  if (pets > 0 && !stay.acceptsPets)
    return fail(422, 'pets-not-allowed', `Stay ${stay.id} refuses pets (rule PET-4 in the booking engine)`);
  const issuedAt = now().getTime();
  const petFee = pets > 0 && stay.id === 'ws-1001' ? 10 * nights * pets : 0;
  const total = stay.pricePerNight * nights + petFee;
  return new AgencyAnswer(200, {
    quoteId: quoteIdOf(stay.id, issuedAt, nights, pets),
    stayId: stay.id,
    dates: body.dates,
    nights,
    total: money(total),
    pets,
    petFee: money(petFee),
    expiresAt: new Date(issuedAt + QUOTE_MINUTES * 60_000).toISOString(),
    ...rateSheet(total),
  });
}

/** Checks a stateless quote: issued by this agency for this stay, and not expired. */
function checkQuote(quoteId: unknown, stay: Stay, nights: number, now: () => Date): AgencyAnswer | undefined {
  const match = typeof quoteId === 'string' ? /^Q-([0-9a-z]+)-[0-9a-f]{8}$/.exec(quoteId) : null;
  const issuedAt = match ? parseInt(match[1]!, 36) : NaN;
  const known = [0, 1, 2, 3, 4].some((pets) => quoteIdOf(stay.id, issuedAt, nights, pets) === quoteId);
  if (!known) return fail(422, 'quote-mismatch', `Quote ${String(quoteId)} was not issued for ${stay.id}`);
  if (now().getTime() > issuedAt + QUOTE_MINUTES * 60_000)
    return fail(422, 'quote-expired', `Quote ${String(quoteId)} expired (ledger row 4471)`);
  return undefined;
}

function requireBearer(request: AgencyRequest): AgencyAnswer | undefined {
  const authorization = request.headers.authorization ?? '';
  if (!/^Bearer \S+$/.test(authorization)) return fail(401, 'unauthorized', 'An agency key is required');
  return undefined;
}

function book(request: AgencyRequest, _params: string[], now: () => Date): AgencyAnswer {
  const refused = requireBearer(request);
  if (refused) return refused;
  const body = (request.body ?? {}) as { quoteId?: unknown; stayId?: unknown; dates?: unknown; guestName?: unknown };
  const stay = stayById(typeof body.stayId === 'string' ? body.stayId : '');
  const nights = nightsBetween(body.dates);
  if (!stay || nights === undefined) return fail(400, 'bad-request', 'stayId and dates are required');
  const invalid = checkQuote(body.quoteId, stay, nights, now);
  if (invalid) return invalid;
  const total = stay.pricePerNight * nights;
  const bookingId = `B-${createHash('sha256').update(String(body.quoteId)).digest('hex').slice(0, 12)}`;
  return new AgencyAnswer(200, {
    bookingId,
    status: 'confirmed',
    stayId: stay.id,
    dates: body.dates,
    total: money(total),
    pets: 0,
    petFee: money(0),
    paymentQuote: `PQ-${bookingId.slice(2, 10)}-${total}`,
    payBy: new Date(now().getTime() + QUOTE_MINUTES * 60_000).toISOString(),
    guests: [{ ...guest(5), name: typeof body.guestName === 'string' ? body.guestName : 'unknown' }],
    ...rateSheet(total),
  });
}

function cancel(request: AgencyRequest, [id]: string[], now: () => Date): AgencyAnswer {
  const refused = requireBearer(request);
  if (refused) return refused;
  if (!/^B-[0-9a-f]{8,12}$/.test(id ?? '')) return fail(404, 'booking-not-found', `No booking ${id} in ledger`);
  if (id === 'B-00000000dead') return fail(409, 'already-cancelled', 'Cancelled on 2027-04-01 by agent 12');
  return new AgencyAnswer(200, {
    bookingId: id,
    status: 'cancelled',
    refund: money(354),
    cancelledAt: now().toISOString(),
    guests: [guest(6)],
    internalNote: 'Cancelled by the synthetic agency; margin retained.',
  });
}

function pay(request: AgencyRequest, _params: string[], now: () => Date): AgencyAnswer {
  const refused = requireBearer(request);
  if (refused) return refused;
  const body = (request.body ?? {}) as { bookingId?: unknown; amount?: { amount?: unknown }; paymentQuote?: unknown };
  if (typeof body.paymentQuote !== 'string') return fail(422, 'payment-quote-required', 'No payment quote');
  const expected = `PQ-${String(body.bookingId).slice(2, 10)}-${String(body.amount?.amount)}`;
  if (body.paymentQuote !== expected) return fail(422, 'payment-quote-mismatch', `Expected ${expected}`);
  return new AgencyAnswer(200, {
    paymentId: `P-${String(body.bookingId).slice(2, 10)}`,
    bookingId: body.bookingId,
    status: 'paid',
    amount: money(Number(body.amount?.amount)),
    paidAt: now().toISOString(),
    card: { brand: 'DEMO', last4: '0000' },
    processorFee: 6.73,
    guests: [guest(7)],
  });
}

function availability(request: AgencyRequest): AgencyAnswer {
  const stay = stayById(request.query.propertyId ?? '');
  if (!stay) return fail(404, 'stay-not-found', `No stay ${request.query.propertyId}`);
  return new AgencyAnswer(200, {
    propertyId: stay.id,
    date: request.query.date,
    roomsFree: 3,
    pricePerNight: stay.pricePerNight,
    ...rateSheet(stay.pricePerNight),
  });
}

/** Room status: ws-1002 has an error row inside its 2xx answer, ws-1003 a wrong-typed price, ws-1005 is down. */
function roomStatus(request: AgencyRequest): AgencyAnswer {
  const id = request.query.propertyId ?? '';
  if (id === 'ws-1005') return fail(503, 'maintenance', 'pg: connection to 10.0.4.7:5432 refused (user agency_rw)');
  const stay = stayById(id);
  if (!stay) return fail(404, 'stay-not-found', `No stay ${id}`);
  const rows = roomsOf(stay).map((room, i) => {
    if (stay.id === 'ws-1002' && i === 1)
      return { room: room.name, error: { code: 'agency-busy', message: "The agency's room system is busy." } };
    if (stay.id === 'ws-1003')
      return {
        room: room.name,
        status: 'taken',
        pricePerNight: { amount: `${room.pricePerNight},00`, currency: 'EUR' },
      };
    return {
      room: room.name,
      status: i === 0 ? 'free' : 'taken',
      pricePerNight: room.pricePerNight,
      ...rateSheet(room.pricePerNight),
    };
  });
  return new AgencyAnswer(200, { propertyId: id, date: request.query.date, rows });
}

/** The legacy search: other fields over-exposed, its own order (cheapest first). */
function legacySearch(request: AgencyRequest): AgencyAnswer {
  const found = search(request).body as { stays: ReturnType<typeof stayRow>[] };
  const stays = [...found.stays]
    .sort((a, b) => a.pricePerNight - b.pricePerNight)
    .map(({ id, name, location, pricePerNight, rating, net, commission }) => ({
      id,
      name,
      location,
      pricePerNight,
      rating,
      boardType: 'ROOM_ONLY',
      freeCancellationUntil: '2027-04-01',
      net,
      commission,
    }));
  return new AgencyAnswer(200, { stays, totalMatches: stays.length });
}

/** A neighbourhood guide, with the locals' tips no declaration names. */
function neighbourhood(_request: AgencyRequest, [area]: string[]): AgencyAnswer {
  return new AgencyAnswer(200, {
    area,
    summary: `${area} is hilly, old and walkable.`,
    walkability: 8.5,
    localTips: ['Ask for Joana at the bakery: +00 000 000 321'],
  });
}

/** A route that works and that no capability binds. */
function deleteGuestBookings(_request: AgencyRequest, [name]: string[], now: () => Date): AgencyAnswer {
  return new AgencyAnswer(200, { guest: name, deletedBookings: 4, deletedAt: now().toISOString() });
}

const ROUTES: readonly { method: string; pattern: RegExp; route: string; handle: Handler }[] = [
  { method: 'POST', pattern: /^\/v1\/stays\/search$/, route: 'POST /v1/stays/search', handle: search },
  { method: 'GET', pattern: /^\/v1\/stays\/([^/]+)$/, route: 'GET /v1/stays/:id', handle: details },
  { method: 'GET', pattern: /^\/v1\/stays\/([^/]+)\/photos$/, route: 'GET /v1/stays/:id/photos', handle: photos },
  { method: 'GET', pattern: /^\/v1\/stays\/([^/]+)\/pages$/, route: 'GET /v1/stays/:id/pages', handle: pages },
  {
    method: 'GET',
    pattern: /^\/v1\/stays\/([^/]+)\/description$/,
    route: 'GET /v1/stays/:id/description',
    handle: description,
  },
  { method: 'POST', pattern: /^\/v1\/quotes$/, route: 'POST /v1/quotes', handle: quote },
  { method: 'POST', pattern: /^\/v1\/bookings$/, route: 'POST /v1/bookings', handle: book },
  {
    method: 'POST',
    pattern: /^\/v1\/bookings\/([^/]+)\/cancel$/,
    route: 'POST /v1/bookings/:id/cancel',
    handle: cancel,
  },
  { method: 'POST', pattern: /^\/v1\/payments$/, route: 'POST /v1/payments', handle: pay },
  { method: 'GET', pattern: /^\/v1\/availability$/, route: 'GET /v1/availability', handle: availability },
  { method: 'GET', pattern: /^\/v1\/room-status$/, route: 'GET /v1/room-status', handle: roomStatus },
  { method: 'POST', pattern: /^\/v1\/search$/, route: 'POST /v1/search', handle: legacySearch },
  {
    method: 'GET',
    pattern: /^\/v1\/neighbourhoods\/([^/]+)$/,
    route: 'GET /v1/neighbourhoods/:area',
    handle: neighbourhood,
  },
  {
    method: 'DELETE',
    pattern: /^\/v1\/guests\/([^/]+)\/bookings$/,
    route: 'DELETE /v1/guests/:name/bookings',
    handle: deleteGuestBookings,
  },
];

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The agency's request handler with its request log: what {@link startSyntheticAgency} serves. */
export interface AgencyHandler {
  listener: RequestListener;
  requests: AgencyRequest[];
  /** Requests received, logged or not. */
  total(): number;
  reset(): void;
  rewrite: AnswerRewrite | undefined;
}

/**
 * The synthetic agency's request handler, for a server of the caller's own (the benchmark serves it beside the
 * framework). See {@link startSyntheticAgency} for what it answers.
 */
export function createAgencyHandler(options: Omit<SyntheticAgencyOptions, 'port'> = {}): AgencyHandler {
  const now = options.now ?? (() => new Date());
  let total = 0;
  const handler: AgencyHandler = {
    requests: [],
    total: () => total,
    reset: () => {
      handler.requests.length = 0;
      total = 0;
    },
    rewrite: undefined,
    listener: (req, res) => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://agency.invalid');
        const body = await readBody(req);
        const match = ROUTES.map((r) => ({ r, m: req.method === r.method ? r.pattern.exec(url.pathname) : null })).find(
          (candidate) => candidate.m !== null,
        );
        const request: AgencyRequest = {
          route: match?.r.route ?? `${req.method} ${url.pathname}`,
          method: req.method ?? 'GET',
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers: { authorization: req.headers.authorization, 'content-type': req.headers['content-type'] },
          body,
        };
        total += 1;
        if (!options.unrecorded) handler.requests.push(request);
        if (!match?.m) return send(res, 404, { error: { code: 'no-route', message: `No route ${request.route}` } });
        const answer = match.r.handle(request, match.m.slice(1).map(decodeURIComponent), now);
        const rewritten =
          handler.rewrite && answer.status < 300 ? handler.rewrite(request.route, answer.body) : answer.body;
        if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
        send(res, answer.status, rewritten);
      })().catch(() => send(res, 500, { error: { code: 'agency-crashed' } }));
    },
  };
  return handler;
}

/**
 * Starts the synthetic agency on 127.0.0.1: a REST API that over-exposes on purpose (margins, guests' passports
 * and phones at every depth, raw HTML with scripts, photos and links on foreign hosts, error rows inside 2xx
 * answers, a wrong-typed price, error bodies naming failures and internal hosts) and counts every request it
 * receives, so a test can prove a refused call never reached it.
 *
 * @example
 * await using agency = await startSyntheticAgency();
 * // ... call a capability bound to agency.url ...
 * expect(agency.count('POST /v1/bookings')).toBe(0);
 */
export async function startSyntheticAgency(options: SyntheticAgencyOptions = {}): Promise<SyntheticAgency> {
  const handler = createAgencyHandler(options);
  const server: Server = createServer(handler.listener);
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }));
  const { requests } = handler;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    count: (route) => (route === undefined ? handler.total() : requests.filter((r) => r.route === route).length),
    last: (route) => requests.findLast((r) => r.route === route),
    reset: () => handler.reset(),
    get rewrite() {
      return handler.rewrite;
    },
    set rewrite(rewrite) {
      handler.rewrite = rewrite;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
