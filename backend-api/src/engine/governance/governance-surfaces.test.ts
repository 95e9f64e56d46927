import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoLeaks, findLeaks } from '../../testing/leak-checker.js';
import { handshake, MCP_PATH, rpc } from '../../testing/mcp.fixtures.js';
import { useTestDatabase } from '../../testing/test-backend.js';
import {
  agency,
  AGENCY_LEAKS,
  DESCRIPTIONS,
  IMAGE_ORIGIN,
  PAGE_ORIGIN,
  staysService,
} from './governance-probes.fixtures.js';
import {
  callAs,
  expectOk,
  expectRefused,
  governedStack,
  SURFACES,
  type GovernedStack,
} from './governance-surfaces.fixtures.js';

// Every governance rule, through REST, MCP and an agent tool, against handlers that pass on everything the agency's
// over-exposing backend sends. Each refusal sits beside its positive control, and the agency's own counter shows a
// refused call never reached it.

const database = useTestDatabase();
let stack: GovernedStack;

beforeAll(async () => {
  stack = await governedStack(database());
});
afterAll(async () => {
  await stack?.t.close();
});

/** Runs `call` and returns how many times it reached the agency's `question`. */
async function reachedBy(question: string, call: () => Promise<unknown>): Promise<number> {
  const before = agency.reached(question);
  await call();
  return agency.reached(question) - before;
}

describe('the leak checker (positive control)', () => {
  it('finds the leaks in the agency’s raw answer that the surfaces must not pass on', async () => {
    const raw = await staysService.customOperations.details({ input: { stayId: 'ws-1001' } } as never);
    const found = new Set(findLeaks(raw, AGENCY_LEAKS).map((leak) => leak.match));
    for (const field of ['margin', 'passport', 'guests', 'lastUsedBy']) expect(found).toContain(field);
    expect(found).toContain(String(AGENCY_LEAKS.values[0]));
  });
});

describe.each(SURFACES)('%s', (surface) => {
  it('projects at every depth: the declared stay, rooms and amenities, none of the rest (S-01, S-02)', async () => {
    const outcome = expectOk(await callAs(stack, surface, 'member', 'details', { stayId: 'ws-1001' }));
    expect(outcome.data).toEqual({
      stay: {
        name: 'Casa Alfama',
        location: 'Lisbon',
        pricePerNight: 118,
        rating: 4.6,
        rooms: [
          {
            name: 'Double Room',
            sleeps: 2,
            pricePerNight: 118,
            amenities: [
              { name: 'Breakfast', fee: 9 },
              { name: 'Airport transfer', fee: 25 },
            ],
          },
          {
            name: 'Family Room',
            sleeps: 4,
            pricePerNight: 171.1,
            amenities: [{ name: 'Cot' }, { name: 'Breakfast', fee: 9 }],
          },
        ],
      },
    });
    expectNoLeaks(outcome, AGENCY_LEAKS);
    expect(outcome.withheld).toContainEqual({ path: 'stay.rooms[0].amenities[1].*', reason: 'undeclared' });
    expect(new Set(outcome.withheld.map((w) => w.reason))).toEqual(new Set(['undeclared']));
  });

  it('withholds a photo on an undeclared host by its position, and keeps the other four (S-03)', async () => {
    const outcome = expectOk(await callAs(stack, surface, 'member', 'photos', { stayId: 'ws-1001' }));
    expect(outcome.data).toEqual({
      gallery: { photos: [1, 2, 3, 5].map((n) => `${IMAGE_ORIGIN}/ws-1001/${n}.jpg`) },
    });
    expectNoLeaks(outcome, AGENCY_LEAKS);
    expect(outcome.withheld).toContainEqual({ path: 'gallery.photos[3]', reason: 'origin_not_declared' });
    // Over MCP the note is a text block of its own, beside the result's text rendering.
    if (surface === 'mcp') {
      const note = (outcome.answer as { content: { text: string }[] }).content[1]?.text;
      expect(note).toMatch(/gallery\.photos\[3\] \(outside the declared origins\)/);
    }
  });

  it('withholds a page link on an undeclared origin and keeps its row (S-04)', async () => {
    const outcome = expectOk(await callAs(stack, surface, 'member', 'pages', { stayId: 'ws-1001' }));
    expect(outcome.data).toEqual({
      pages: [
        { name: 'Casa Alfama', url: `${PAGE_ORIGIN}/hotels/casa-alfama` },
        { name: 'Casa Alfama Annex (partner)' },
      ],
    });
    expectNoLeaks(outcome, AGENCY_LEAKS);
    expect(outcome.withheld).toContainEqual({ path: 'pages[1].url', reason: 'origin_not_declared' });
  });

  it('passes clean HTML byte for byte, and withholds HTML with a script or a foreign image whole', async () => {
    const clean = expectOk(await callAs(stack, surface, 'member', 'description', { stayId: 'ws-clean' }));
    expect((clean.data as { description: string }).description).toBe(DESCRIPTIONS['ws-clean']);
    for (const [stayId, reason] of [
      ['ws-script', 'html_script'],
      ['ws-foreign', 'origin_not_declared'],
    ] as const) {
      const outcome = expectOk(await callAs(stack, surface, 'member', 'description', { stayId }));
      expect(outcome.data).toEqual({ name: 'Casa Alfama' });
      expectNoLeaks(outcome, AGENCY_LEAKS);
      expect(outcome.withheld).toContainEqual({ path: 'description', reason });
    }
  });

  it('refuses a wrong-typed declared price as a contract violation naming it invalid, with no content (S-13)', async () => {
    expectOk(await callAs(stack, surface, 'member', 'room-status', { propertyId: 'ws-1002' }));
    const outcome = expectRefused(await callAs(stack, surface, 'member', 'room-status', { propertyId: 'ws-1003' }));
    expect(outcome.violation).toEqual({
      missing: [],
      invalid: [{ field: 'rooms[0].pricePerNight', expected: 'number' }],
    });
    expect(outcome.structured).toBeUndefined();
    expect(JSON.stringify(outcome.answer ?? {})).not.toContain('139,00');
  });

  it('answers a declared failure with its code and declared description, never the backend’s words', async () => {
    expectOk(await callAs(stack, surface, 'manager', 'book', { quoteId: 'Q-ok' }));
    const expired = expectRefused(await callAs(stack, surface, 'manager', 'book', { quoteId: 'Q-expired' }));
    expect(expired).toMatchObject({
      failure: 'quote-expired',
      description: 'The quote has expired; ask for a new one.',
    });
    const foreign = expectRefused(await callAs(stack, surface, 'manager', 'book', { quoteId: 'Q-foreign' }));
    expect(foreign).toMatchObject({ failure: 'quote-mismatch' });
    expectNoLeaks(foreign.answer, AGENCY_LEAKS);
  });

  it('answers an undeclared failure with the status only (the gateway’s #175)', async () => {
    const down = expectRefused(await callAs(stack, surface, 'manager', 'book', { quoteId: 'Q-down' }));
    expect(down).toMatchObject({ upstreamStatus: 503 });
    expect(down.failure).toBeUndefined();
    const crash = expectRefused(await callAs(stack, surface, 'manager', 'book', { quoteId: 'Q-crash' }));
    expect(crash.internal).toBe(true);
    for (const outcome of [down, crash]) expectNoLeaks(outcome.answer, AGENCY_LEAKS);
  });

  it('refuses a caller the allow list does not name before the agency is asked; a listed one books', async () => {
    const reached = await reachedBy('book', async () => {
      const outcome = expectRefused(await callAs(stack, surface, 'member', 'book', { quoteId: 'Q-ok' }));
      expect(outcome.reason).toBe('principal_not_allowed');
    });
    expect(reached).toBe(0);
    expect(
      await reachedBy('book', async () =>
        expectOk(await callAs(stack, surface, 'manager', 'book', { quoteId: 'Q-ok' })),
      ),
    ).toBe(1);
  });

  it('refuses a caller the deny list names even though the allow list names it too; a person cancels', async () => {
    const reached = await reachedBy('cancel', async () => {
      const outcome = expectRefused(await callAs(stack, surface, 'machine', 'cancel', { bookingId: 'B-1' }));
      expect(outcome.reason).toBe('principal_denied');
    });
    expect(reached).toBe(0);
    const person = expectOk(await callAs(stack, surface, 'member', 'cancel', { bookingId: 'B-1' }));
    expect(person.data).toEqual({ cancelled: true });
  });
});

describe('effects as tool hints', () => {
  it('advertises an irreversible operation as destructive and not idempotent, a read as read-only', async () => {
    const res = await handshake(stack.t.api, MCP_PATH, rpc('tools/list'), stack.machineKey);
    const tools = res.body.result.tools as { name: string; annotations: Record<string, boolean> }[];
    const hints = (name: string) => tools.find((tool) => tool.name === name)?.annotations;
    expect(hints('stays__cancel')).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect(hints('stays__details')).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tools.map((tool) => tool.name)).not.toContain('stays__search-classic');
  });
});

describe('a rate limit per caller, shared by every surface (S-11)', () => {
  it('admits three calls across REST, MCP and a tool, refuses the fourth on each before the agency is asked', async () => {
    const args = { propertyId: 'ws-1001' };
    for (const surface of SURFACES) expectOk(await callAs(stack, surface, 'manager', 'availability', args));
    for (const surface of SURFACES) {
      const reached = await reachedBy('availability', async () => {
        const outcome = expectRefused(await callAs(stack, surface, 'manager', 'availability', args));
        expect(outcome.reason).toBe('rate_limit_exceeded');
      });
      expect(reached).toBe(0);
    }
    // Another caller has a count of their own, and the limited caller's other operations still answer.
    expectOk(await callAs(stack, 'rest', 'member', 'availability', args));
    expectOk(await callAs(stack, 'mcp', 'manager', 'details', { stayId: 'ws-1001' }));
  });
});
