import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResourceOperationVariantSchema } from '@wildo/shared-lib';
import { loadCapabilityManifest } from '@wildo/backend-api';
import { referenceApplication } from '@wildo/backend-api/reference-application';
import { callTool, mcpCall, type McpExchange } from '../support/mcp-client.js';
import { startConnectorStack, type CallOutcome, type ConnectorStack } from './connector-stack.js';
import { expectAnswersLeakNothing } from './leak-check.js';

// The gateway's manifest format, loaded unchanged into the registry beside the reference application's TypeScript
// declarations, and the showcase's scenarios replayed over MCP against the synthetic agency.
const SHOWCASE = fileURLToPath(new URL('../synthetic-agency/manifest/', import.meta.url));
/**
 * `human-approval` (cancel, pay) becomes the operations' approval step. A build without that step (before
 * wt/approvals is merged) refuses the declaration, as it must; there the two capabilities are served from a copy
 * without the line, and every other scenario runs on the manifest as written.
 */
const APPROVAL_STEP = 'approval' in ResourceOperationVariantSchema.shape;
function manifestDirectory(): string {
  if (APPROVAL_STEP) return SHOWCASE;
  const copy = mkdtempSync(path.join(tmpdir(), 'wildo-showcase-'));
  cpSync(SHOWCASE, copy, { recursive: true });
  for (const file of ['wanderlust.cancel.capability.yaml', 'wanderlust.pay.capability.yaml']) {
    const at = path.join(copy, file);
    writeFileSync(at, readFileSync(at, 'utf8').replace('    - human-approval\n', ''));
  }
  return copy;
}
const MANIFEST = manifestDirectory();
const DATES = { from: '2027-05-12', to: '2027-05-15' };
const LISBON = { destination: 'Lisbon', dates: DATES, travelers: { adults: 2 } };

describe('a capability manifest in the gateway’s format, served beside TypeScript declarations', () => {
  let stack: ConnectorStack;
  const tools: Record<string, { annotations?: Record<string, unknown>; description?: string }> = {};
  beforeAll(async () => {
    stack = await startConnectorStack({
      application: () => ({
        ...referenceApplication,
        modules: [
          ...referenceApplication.modules,
          // The manifest names principals as strings; the host says which verified callers they stand for.
          loadCapabilityManifest({
            directory: MANIFEST,
            principals: { 'demo:visitor': { kind: 'role', role: 'ORG_MANAGER' }, 'demo:blocked': { kind: 'machine' } },
          }),
        ],
      }),
    });
    const listed = await mcpCall(
      stack.client,
      stack.mcpPathOf('wanderlust'),
      'tools/list',
      {},
      {
        credential: stack.credential(stack.owner, 'wanderlust'),
      },
    );
    for (const tool of (listed.result?.tools ?? []) as {
      name: string;
      annotations?: Record<string, unknown>;
      description?: string;
    }[])
      tools[tool.name] = tool;
  });
  afterAll(async () => {
    await stack?.close();
    if (MANIFEST !== SHOWCASE) rmSync(MANIFEST, { recursive: true, force: true });
  });

  const wanderlust = (operation: string, input: Record<string, unknown>, who = stack.owner) =>
    stack.call('mcp', 'wanderlust', operation, input, who);

  async function notAsked(run: () => Promise<CallOutcome>): Promise<CallOutcome> {
    const before = stack.agency.count();
    const outcome = await run();
    expect(outcome.ok, JSON.stringify(outcome.raw)).toBe(false);
    expect(stack.agency.count(), 'the agency was not asked').toBe(before);
    return outcome;
  }

  it('lists the manifest’s tools beside the reference application’s, with hints from their effects (S-05, S-08)', () => {
    expect(Object.keys(tools)).toEqual(
      expect.arrayContaining(['todos__create', 'wanderlust__search-capability', 'tourism__search-capability']),
    );
    expect(tools['wanderlust__search-capability']?.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools['wanderlust__quote']?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(tools['wanderlust__cancel']?.annotations).toMatchObject({ destructiveHint: true, idempotentHint: false });
  });

  it('returns a collection without the margin, in the agency’s order (S-01), also over REST', async () => {
    const found = await wanderlust('search-capability', LISBON);
    expect(found.data).toMatchObject({ totalMatches: 4 });
    const stays = (found.data as { stays: Record<string, unknown>[] }).stays;
    expect(stays.map((stay) => stay.id)).toEqual(['ws-1001', 'ws-1003', 'ws-1002', 'ws-1004']);
    expect(Object.keys(stays[0]!).sort()).toEqual(['id', 'location', 'name', 'petPolicy', 'pricePerNight', 'rating']);
    const rest = await stack.call('rest', 'wanderlust', 'search-capability', LISBON);
    expect(rest.data).toEqual(found.data);
  });

  it('projects four levels deep (S-02)', async () => {
    const details = await wanderlust('stay-details', { stayId: 'ws-1001' });
    expect(details.data).toMatchObject({
      stay: {
        name: 'Casa Alfama',
        rooms: [
          {
            name: 'Double Room',
            amenities: [
              { name: 'Breakfast', fee: 9 },
              { name: 'Airport transfer', fee: 25 },
            ],
          },
          {},
        ],
      },
    });
    expect(details.texts.join('\n')).toMatch(/withheld/i);
  });

  it('withholds a photo and a page link on undeclared origins by position, keeping the rest (S-03, S-04)', async () => {
    const photos = await wanderlust('stay-photos', { stayId: 'ws-1001' });
    expect((photos.data as { gallery: { photos: string[] } }).gallery.photos).toHaveLength(4);
    expect(photos.withheld).toContainEqual({ path: 'gallery.photos[3]', reason: 'origin_not_declared' });
    const pages = await wanderlust('stay-page', { stayId: 'ws-1001' });
    expect(pages.data).toMatchObject({
      pages: [
        { url: 'https://www.agency.example/hotels/casa-alfama' },
        { name: 'Casa Alfama Annex (partner listing)' },
      ],
    });
    expect(pages.withheld).toContainEqual({ path: 'pages[1].url', reason: 'origin_not_declared' });
  });

  it('books with the caller’s own token once the policy admits them; a quote books nothing (S-05, S-06)', async () => {
    const quoted = await wanderlust('quote', { stayId: 'ws-1001', dates: DATES, travelers: { adults: 2 } });
    const quote = (quoted.data as { quote: { quoteId: string } }).quote;
    expect(Object.keys(quote).sort()).toEqual([
      'dates',
      'expiresAt',
      'nights',
      'petFee',
      'pets',
      'quoteId',
      'stayId',
      'total',
    ]);
    const booked = await wanderlust('book', {
      quoteId: quote.quoteId,
      stayId: 'ws-1001',
      dates: DATES,
      travelers: { adults: 2 },
      guestName: 'Ana Pop',
    });
    expect(booked.data).toMatchObject({ booking: { status: 'confirmed' } });
    expect(stack.agency.last('POST /v1/bookings')?.headers.authorization).toBe(
      stack.credential(stack.owner, 'wanderlust').header(),
    );
  });

  it('refuses a denied machine and a person on no allow list before the agency is asked (S-07)', async () => {
    const booking = { quoteId: 'Q-x', stayId: 'ws-1001', dates: DATES, travelers: { adults: 2 }, guestName: 'Ana' };
    const member = await stack.member('ORG_MEMBER');
    expect((await notAsked(() => wanderlust('book', booking, member))).reason).toBe('principal_not_allowed');
    const before = stack.agency.count();
    const machine: McpExchange = await callTool(
      stack.client,
      stack.mcpPathOf('wanderlust'),
      'wanderlust__book',
      { organizationId: stack.organizationId, ...booking },
      { credential: stack.apiKey },
    );
    expect(JSON.stringify(machine.result?._meta)).toContain('principal_denied');
    expect(stack.agency.count()).toBe(before);
  });

  it.runIf(APPROVAL_STEP)(
    'waits for a person before an irreversible cancellation reaches the agency (S-10)',
    async () => {
      const before = stack.agency.count('POST /v1/bookings/:id/cancel');
      const cancel = await wanderlust('cancel', { bookingId: 'B-0123456789ab' });
      expect(cancel.data).toBeUndefined();
      expect(stack.agency.count('POST /v1/bookings/:id/cancel')).toBe(before);
    },
  );

  it('refuses a payment without its quote by the input contract, and names the agency’s refusal by its declared failure (S-09)', async () => {
    const missing = await notAsked(() =>
      wanderlust('pay', { bookingId: 'B-0123456789ab', amount: { amount: 354, currency: 'EUR' } }),
    );
    expect(missing).toMatchObject({ reason: 'input_invalid' });
    expect(JSON.stringify(missing.raw)).toContain('paymentQuote');
  });

  it('refuses the fourth availability call in the window (S-11)', async () => {
    const day = { propertyId: 'ws-1001', date: '2027-06-05' };
    for (let i = 0; i < 3; i++) expect((await wanderlust('availability', day)).ok).toBe(true);
    expect((await notAsked(() => wanderlust('availability', day))).reason).toBe('rate_limit_exceeded');
  });

  it('answers a deprecated capability with a note, refuses a retired one, serves an experimental one unlisted (S-12)', async () => {
    expect(tools['tourism__search-capability']?.description).toMatch(/Deprecated/);
    expect((await stack.call('mcp', 'tourism', 'search-capability', LISBON)).ok).toBe(true);
    expect(Object.keys(tools)).not.toContain('tourism__search-classic');
    expect((await notAsked(() => stack.call('mcp', 'tourism', 'search-classic', LISBON))).reason).toBe(
      'lifecycle_blocked',
    );
    expect(Object.keys(tools)).not.toContain('wanderlust__neighbourhood');
    expect((await wanderlust('neighbourhood', { area: 'Alfama' })).data).toMatchObject({
      neighbourhood: { area: 'Alfama', walkability: 8.5 },
    });
  });

  it('keeps an error row as a row, refuses a wrong-typed price, and reports a failing agency by its status (S-13)', async () => {
    const rows = await wanderlust('room-status', { propertyId: 'ws-1002', date: '2027-05-12' });
    expect((rows.data as { rooms: { $row: string }[] }).rooms.map((row) => row.$row)).toEqual(['ok', 'error']);
    expect((await wanderlust('room-status', { propertyId: 'ws-1003', date: '2027-05-12' })).violation).toBeDefined();
    const down = await wanderlust('room-status', { propertyId: 'ws-1005', date: '2027-05-12' });
    expect(down.ok).toBe(false);
    expect(down.texts.join(' ')).toContain('503');
  });

  it('has no tool for the agency’s delete route, and an unknown tool reaches nothing (S-14)', async () => {
    expect(Object.keys(tools).filter((name) => /delete/.test(name) && /^(wanderlust|tourism)__/.test(name))).toEqual(
      [],
    );
    const unknown = await callTool(
      stack.client,
      stack.mcpPathOf('wanderlust'),
      'wanderlust__delete-guest-bookings',
      { name: 'Ana Pop' },
      { credential: stack.credential(stack.owner, 'wanderlust') },
    );
    expect(unknown.error).toBeDefined();
    expect(stack.agency.count('DELETE /v1/guests/:name/bookings')).toBe(0);
  });

  it('refuses a wrong-shaped argument before the agency is asked, echoing nothing (S-23)', async () => {
    const refused = await notAsked(() =>
      wanderlust('search-capability', { destination: { $ne: 1 }, dates: 'tomorrow', travelers: -1 }),
    );
    expect(refused.reason).toBe('input_invalid');
    expect(JSON.stringify(refused.raw)).not.toMatch(/\$ne|tomorrow/);
    expect(JSON.stringify(refused.raw)).toMatch(/destination/);
  });

  it('shows no undeclared field name or value anywhere in this file’s results', async () => {
    expectAnswersLeakNothing(
      stack.outcomes.map((outcome) => outcome.raw),
      await (await fetch(`${stack.agency.url}/v1/stays/ws-1001`)).json(),
    );
  });
});
