import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findLeaks } from '@wildo/backend-api/testing';
import {
  SURFACES,
  startConnectorStack,
  type CallOutcome,
  type ConnectorStack,
  type Surface,
} from './connector-stack.js';
import { expectAnswersLeakNothing } from './leak-check.js';
import { readmeBlock, runReadmeBlock } from './readme-blocks.js';

// The reference application's travel desk (TypeScript declarations bound to the synthetic agency's REST API), through
// REST, MCP and an agent tool: each governance rule beside its positive control, and after each refusal the agency's
// request counter shows it was never asked.
const DATES = { from: '2027-05-12', to: '2027-05-15' };
const LISBON = { destination: 'Lisbon', dates: DATES, travelers: { adults: 2 } };

describe('the travel desk: a resource bound to an existing REST API', () => {
  let stack: ConnectorStack;
  beforeAll(async () => {
    stack = await startConnectorStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  const hotels = (surface: Surface, operation: string, input: Record<string, unknown>) =>
    stack.call(surface, 'hotels', operation, input);

  /** REST and MCP report where values were withheld; an agent's tool result carries the shown data only. */
  function expectWithheld(outcome: CallOutcome, surface: Surface, place: { path: string; reason: string }): void {
    if (surface !== 'agent') expect(outcome.withheld).toContainEqual(place);
  }

  /** Runs a call that must be refused before the agency is asked: the route's counter does not move. */
  async function refusedBeforeTheAgency(route: string, run: () => Promise<CallOutcome>): Promise<CallOutcome> {
    const before = stack.agency.count();
    const outcome = await run();
    expect(outcome.ok, JSON.stringify(outcome.raw)).toBe(false);
    expect(stack.agency.count(), `${route} was not asked`).toBe(before);
    return outcome;
  }

  describe.each(SURFACES)('through %s', (surface) => {
    it('finds stays in the agency’s order, each with its declared fields only', async () => {
      const found = await hotels(surface, 'find', LISBON);
      expect(found.ok, JSON.stringify(found.raw)).toBe(true);
      expect(found.data).toMatchObject({ totalMatches: 4 });
      const rows = (found.data as { stays: Record<string, unknown>[] }).stays;
      expect(rows.map((row) => row.id)).toEqual(['ws-1001', 'ws-1003', 'ws-1002', 'ws-1004']);
      for (const row of rows)
        expect(Object.keys(row).sort()).toEqual(['id', 'location', 'name', 'petPolicy', 'pricePerNight', 'rating']);
    });

    it('projects a nested answer at every depth and reports where it withheld (S-02)', async () => {
      const details = await hotels(surface, 'details', { stayId: 'ws-1001' });
      expect(details.ok, JSON.stringify(details.raw)).toBe(true);
      const stay = (details.data as { stay: { rooms: { amenities: object[] }[] } }).stay;
      expect(Object.keys(stay.rooms[0]!).sort()).toEqual(['amenities', 'name', 'pricePerNight', 'sleeps']);
      expect(stay.rooms[0]!.amenities[0]).toEqual({ name: 'Breakfast', fee: 9 });
      if (surface !== 'agent') expect(details.withheld.length).toBeGreaterThan(0);
    });

    it('withholds a photo on an undeclared host by its position and keeps the others (S-03)', async () => {
      const photos = await hotels(surface, 'photos', { stayId: 'ws-1001' });
      expect(photos.data).toEqual({
        photos: [1, 2, 3, 5].map((n) => `https://img.agency.example/ws-1001/${n}.jpg`),
      });
      expectWithheld(photos, surface, { path: 'photos[3]', reason: 'origin_not_declared' });
    });

    it('withholds a partner page link and keeps its row (S-04)', async () => {
      const pages = await hotels(surface, 'pages', { stayId: 'ws-1001' });
      expect(pages.data).toEqual({
        pages: [
          { name: 'Casa Alfama', url: 'https://www.agency.example/hotels/casa-alfama' },
          { name: 'Casa Alfama Annex (partner listing)' },
        ],
      });
      expectWithheld(pages, surface, { path: 'pages[1].url', reason: 'origin_not_declared' });
    });

    it('passes clean HTML byte for byte and withholds HTML with a script whole, with its reason (S-22)', async () => {
      const clean = await hotels(surface, 'description', { stayId: 'ws-1001' });
      expect((clean.data as { html: string }).html).toBe(
        '<article><h2>Casa Alfama</h2><p>Quiet rooms above the old town.</p><img src="https://img.agency.example/ws-1001/hero.jpg" alt="The street at dusk"><a href="https://www.agency.example/hotels/casa-alfama">Book on our site</a></article>',
      );
      const scripted = await hotels(surface, 'description', { stayId: 'ws-1002' });
      expect(scripted.ok).toBe(true);
      expect(scripted.data).toEqual({});
      expectWithheld(scripted, surface, { path: 'html', reason: 'html_script' });
    });

    it('keeps an error row inside a 2xx answer as a row (S-13)', async () => {
      const status = await hotels(surface, 'room-status', { propertyId: 'ws-1002', date: '2027-05-12' });
      expect(status.data, JSON.stringify(status.raw)).toEqual({
        rooms: [
          { $row: 'ok', room: 'Double Room', status: 'free', pricePerNight: 74 },
          { $row: 'error', code: 'agency-busy', message: "The agency's room system is busy." },
        ],
      });
    });

    it('refuses a wrong-typed declared field as a contract violation naming it invalid, with no content (S-13)', async () => {
      const fine = await hotels(surface, 'details', { stayId: 'ws-1003' });
      expect(fine.data).toMatchObject({ stay: { pricePerNight: 139 } });
      const wrong = await hotels(surface, 'details', { stayId: 'ws-1004' });
      expect(wrong, JSON.stringify(wrong.raw)).toMatchObject({
        ok: false,
        violation: { missing: [], invalid: [{ field: 'stay.pricePerNight' }] },
      });
      expect(wrong.data).toBeUndefined();
    });

    it('answers a backend refusal that names a declared failure with that failure only (S-09)', async () => {
      const quoted = await hotels(surface, 'quote', {
        stayId: 'ws-1001',
        dates: DATES,
        travelers: { adults: 2 },
        pets: 1,
      });
      expect(quoted.ok, JSON.stringify(quoted.raw)).toBe(true);
      const refused = await hotels(surface, 'quote', {
        stayId: 'ws-1003',
        dates: DATES,
        travelers: { adults: 2 },
        pets: 1,
      });
      expect(refused.failure).toEqual({
        code: 'pets-not-allowed',
        description: 'This stay takes no pets; quote without pets or pick another stay.',
      });
    });

    it('answers any other backend failure with its status only (S-13, 503)', async () => {
      const down = await hotels(surface, 'room-status', { propertyId: 'ws-1005', date: '2027-05-12' });
      expect(down).toMatchObject({ ok: false });
      expect(down.texts.join(' ')).toContain('503');
    });

    it('refuses input outside the contract before the agency is asked, naming paths only (S-23)', async () => {
      const hostile = await refusedBeforeTheAgency('POST /v1/stays/search', () =>
        hotels(surface, 'find', { destination: { $ne: 1 }, dates: 'tomorrow', travelers: -1 }),
      );
      expect(hostile.reason).toBe('input_invalid');
      expect(JSON.stringify(hostile.raw)).not.toContain('$ne');
      expect(JSON.stringify(hostile.raw)).not.toContain('tomorrow');
    });

    // The desk's agent is not offered cancellations at all; REST and MCP callers are held for a person.
    it.runIf(surface !== 'agent')(
      'holds a cancellation for a person’s approval before the agency is asked (S-10)',
      async () => {
        const held = await refusedBeforeTheAgency('POST /v1/bookings/:id/cancel', () =>
          hotels(surface, 'cancel', { bookingId: 'B-0123456789ab' }),
        );
        expect(held.reason, JSON.stringify(held.raw)).toMatch(/^approval_/);
      },
    );

    it('refuses a caller the policy does not allow before the agency is asked; a manager pays', async () => {
      const payment = {
        bookingId: 'B-0123456789ab',
        amount: { amount: 354, currency: 'EUR' },
        paymentQuote: 'PQ-01234567-354',
      };
      const member = await stack.member('ORG_MEMBER');
      const refused = await refusedBeforeTheAgency('POST /v1/payments', () =>
        stack.call(surface, 'hotels', 'pay', payment, member),
      );
      expect(refused.reason).toBe('principal_not_allowed');
      const paid = await stack.call(surface, 'hotels', 'pay', payment, await stack.member('ORG_MANAGER'));
      expect(paid.data, JSON.stringify(paid.raw)).toMatchObject({ payment: { status: 'paid' } });
      // On its own account: the desk's key from the environment, never the caller's credential.
      expect(stack.agency.last('POST /v1/payments')?.headers.authorization).toBe('Bearer desk-key-0001');
    });
  });

  it('limits availability per caller across every surface: the fourth call in the window is refused (S-11)', async () => {
    const caller = await stack.member('ORG_MEMBER');
    const day = { propertyId: 'ws-1004', date: '2027-06-05' };
    for (const surface of SURFACES)
      expect((await stack.call(surface, 'hotels', 'availability', day, caller)).ok).toBe(true);
    const fourth = await refusedBeforeTheAgency('GET /v1/availability', () =>
      stack.call('rest', 'hotels', 'availability', day, caller),
    );
    expect(fourth.reason).toBe('rate_limit_exceeded');
    expect((await stack.call('mcp', 'hotels', 'availability', day, await stack.member('ORG_ADMIN'))).ok).toBe(true);
  });

  it("forwards the caller's own delegated token over MCP, and nothing else anywhere", async () => {
    const quote = await hotels('mcp', 'quote', { stayId: 'ws-1001', dates: DATES, travelers: { adults: 2 } });
    const quoteId = (quote.data as { quote: { quoteId: string } }).quote.quoteId;
    const booking = { quoteId, stayId: 'ws-1001', dates: DATES, guestName: 'Ana Pop' };
    const booked = await hotels('mcp', 'book', booking);
    expect(booked.data).toMatchObject({ booking: { status: 'confirmed', total: { amount: 354, currency: 'EUR' } } });
    expect(stack.agency.last('POST /v1/bookings')?.headers.authorization).toBe(
      stack.credential(stack.owner, 'hotels').header(),
    );
    for (const surface of ['rest', 'agent'] as const) {
      const refused = await refusedBeforeTheAgency('POST /v1/bookings', () => hotels(surface, 'book', booking));
      expect(refused.reason).toBe('principal_not_allowed');
    }
  });

  it('denies a machine caller the booking before the agency is asked (principal_denied)', async () => {
    const booking = { quoteId: 'Q-1', stayId: 'ws-1001', dates: DATES, guestName: 'Ana Pop' };
    const before = stack.agency.count();
    const { callTool } = await import('../support/mcp-client.js');
    const exchange = await callTool(
      stack.client,
      stack.mcpPathOf('hotels'),
      'hotels__book',
      { organizationId: stack.organizationId, ...booking },
      { credential: stack.apiKey },
    );
    expect((exchange.result?._meta as Record<string, { reason?: string }>)?.['dev.wildo/policy_denied']?.reason).toBe(
      'principal_denied',
    );
    expect(stack.agency.count()).toBe(before);
  });

  it('offers no tool for what no declaration binds: the agency’s delete route is never reachable', async () => {
    const { mcpCall, toolNamesOf } = await import('../support/mcp-client.js');
    const listed = toolNamesOf(
      await mcpCall(
        stack.client,
        stack.mcpPathOf('hotels'),
        'tools/list',
        {},
        {
          credential: stack.credential(stack.owner, 'hotels'),
        },
      ),
    );
    expect(listed).toContain('hotels__find');
    expect(listed.filter((name) => /delete/i.test(name) && name.startsWith('hotels'))).toEqual([]);
    expect(stack.agency.count('DELETE /v1/guests/:name/bookings')).toBe(0);
  });

  it('never shows a field the agency adds at any depth of any answer (property: random extra fields)', async () => {
    // Keys no declaration uses and values no answer holds, put at random places of random answers.
    const injection = fc.record({
      route: fc.array(fc.nat(), { maxLength: 6 }),
      key: fc.stringMatching(/^[a-z]{3,10}$/).map((word) => `leak_${word}`),
      value: fc.oneof(
        fc.stringMatching(/^[0-9a-f]{8}$/).map((hex) => `LEAK-${hex}`),
        fc.integer(),
        fc.stringMatching(/^[0-9a-f]{8}$/).map((hex) => ({ deeper: [`LEAK-${hex}`], nested: { n: 1 } })),
      ),
    });
    const operations: [string, Record<string, unknown>][] = [
      ['find', LISBON],
      ['details', { stayId: 'ws-1003' }],
      ['photos', { stayId: 'ws-1002' }],
      ['pages', { stayId: 'ws-1001' }],
      ['room-status', { propertyId: 'ws-1002', date: '2027-05-12' }],
      ['quote', { stayId: 'ws-1001', dates: DATES, travelers: { adults: 2 } }],
    ];
    /** The objects of an answer, to pick a place among: every object at every depth, arrays' items included. */
    const placeFor = (body: unknown, route: readonly number[]): Record<string, unknown> | undefined => {
      let place = body;
      for (const step of route) {
        const children = Object.values(place as object).flatMap((child) => (Array.isArray(child) ? child : [child]));
        const objects = children.filter(
          (child) => child !== null && typeof child === 'object' && !Array.isArray(child),
        );
        if (objects.length === 0) break;
        place = objects[step % objects.length];
      }
      return place !== null && typeof place === 'object' && !Array.isArray(place)
        ? (place as Record<string, unknown>)
        : undefined;
    };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...operations),
        fc.constantFrom(...SURFACES),
        fc.array(injection, { minLength: 1, maxLength: 8 }),
        async ([operation, input], surface, injections) => {
          let sent: unknown;
          stack.agency.rewrite = (_route, body) => {
            for (const { route, key, value } of injections) {
              const place = placeFor(body, route);
              if (place) place[key] = value;
            }
            return (sent = body);
          };
          try {
            const outcome = await hotels(surface, operation, input);
            expect(outcome.ok, JSON.stringify(outcome.raw)).toBe(true);
            const rules = { fields: injections.map((i) => i.key), values: [/LEAK-[0-9a-f]{8}/] };
            // The control: the agency did send the extra fields; none of them reached the result.
            expect(findLeaks(sent, rules).length).toBeGreaterThan(0);
            expect(findLeaks(outcome.raw, rules)).toEqual([]);
          } finally {
            stack.agency.rewrite = undefined;
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  it('answers the README’s calls as the README says', async () => {
    const started = readmeBlock('--filter @wildo/e2e agency ');
    expect(started).toContain('TRAVEL_AGENCY_API_URL=http://127.0.0.1:8788');
    const { stdout } = await runReadmeBlock(readmeBlock('/hotels/find'), {
      API: `${stack.url}/api/v1`,
      TOKEN: stack.owner.user.token.reveal(),
      ORG: stack.organizationId,
    });
    // Two answers, back to back (curl adds no newline).
    const [found, photos] = stdout
      .split(/(?<=\})(?=\{"data")/)
      .map((text) => JSON.parse(text) as { data: unknown; withheld?: unknown });
    expect(found?.data).toMatchObject({ totalMatches: 4, stays: [{ id: 'ws-1001', name: 'Casa Alfama' }, {}, {}, {}] });
    expect(photos?.withheld).toEqual([{ path: 'photos[3]', reason: 'origin_not_declared' }]);
  });

  it('never shows an undeclared field name or value in any structured content or text of this file', async () => {
    expect(stack.outcomes.length).toBeGreaterThan(40);
    expectAnswersLeakNothing(
      stack.outcomes.map((outcome) => outcome.raw),
      await (await fetch(`${stack.agency.url}/v1/stays/ws-1001`)).json(),
    );
  });
});
