import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConnectorSetupError,
  createSilentLogger,
  createWildoBackend,
  loadCapabilityManifest,
} from '@wildo/backend-api';
import { referenceApplication } from '@wildo/backend-api/reference-application';
import { createOrganization, signUp } from '../support/fixtures.js';
import { createAgencyReporting, type AgencyReporting } from '../synthetic-agency/agency-reporting.js';
import { SURFACES, startConnectorStack, type ConnectorStack } from './connector-stack.js';
import { expectAnswersLeakNothing } from './leak-check.js';
import { readmeBlock, runReadmeBlock } from './readme-blocks.js';

// The same SQL capability (the reference application's TypeScript binding, and the gateway manifest's S-15 binding)
// against the agency's reporting schema on PostgreSQL: row-level security decides whose rows come back.
const DATABASE_URL = process.env.DATABASE_URL;
const REPORTING_MANIFEST = fileURLToPath(new URL('../synthetic-agency/reporting-manifest/', import.meta.url));
const MAY = { month: '2027-05' };

describe.skipIf(!DATABASE_URL)('SQL capabilities under row-level security (PostgreSQL)', () => {
  let reporting: AgencyReporting;
  let stack: ConnectorStack;
  const logLines: string[] = [];
  beforeAll(async () => {
    reporting = await createAgencyReporting(DATABASE_URL as string);
    stack = await startConnectorStack({
      application: () => ({
        ...referenceApplication,
        modules: [
          ...referenceApplication.modules,
          loadCapabilityManifest({ directory: REPORTING_MANIFEST, moduleName: 'reporting' }),
        ],
      }),
      env: { TRAVEL_AGENCY_REPORTING_DSN: reporting.readerDsn, REPORTING_DSN: reporting.readerDsn },
      logLines,
    });
    await reporting.seed(stack.organizationId, [
      ['Lisbon', '2027-05', 5],
      ['Porto', '2027-05', 3],
      ['Seville', '2027-05', 2],
      ['Lisbon', '2027-06', 7],
    ]);
  });
  afterAll(async () => {
    await stack?.close();
    await reporting?.drop();
  });

  const LISBON_FIRST = {
    cities: [
      { city: 'Lisbon', bookings: 5 },
      { city: 'Porto', bookings: 3 },
      { city: 'Seville', bookings: 2 },
    ],
  };

  it.each(SURFACES)('gives each organization its own rows only, through %s', async (surface) => {
    const own = await stack.call(surface, 'agency-reports', 'bookings-by-city', MAY);
    expect(own.data, JSON.stringify(own.raw)).toEqual(LISBON_FIRST);
    // The manifest's binding (S-15) answers the same, from the same policy.
    if (surface !== 'agent')
      expect((await stack.call(surface, 'wanderlust', 'bookings-by-city', MAY)).data).toEqual(LISBON_FIRST);
  });

  it('answers another tenant with its rows, and a tenant without rows with none', async () => {
    const other = await signUp(stack.client, 'reporting-other');
    const otherOrg = await createOrganization(stack.client, other, 'Other agency');
    await reporting.seed(otherOrg, [['Madrid', '2027-05', 4]]);
    const theirs = await stack.client.post(`/api/v1/organizations/${otherOrg}/agency-reports/bookings-by-city`, MAY, {
      token: other.token,
    });
    expect((theirs.body as { data: unknown }).data).toEqual({ cities: [{ city: 'Madrid', bookings: 4 }] });
    const empty = await signUp(stack.client, 'reporting-empty');
    const emptyOrg = await createOrganization(stack.client, empty, 'New agency');
    const none = await stack.client.post(`/api/v1/organizations/${emptyOrg}/agency-reports/bookings-by-city`, MAY, {
      token: empty.token,
    });
    expect((none.body as { data: unknown }).data).toEqual({ cities: [] });
    expect((await stack.call('rest', 'agency-reports', 'bookings-by-city', MAY)).data).toEqual(LISBON_FIRST);
  });

  it('refuses every call, and reports it, once a policy is dropped or row security turned off; answers again once restored', async () => {
    const table = `${reporting.schema}.bookings`;
    await reporting.admin(`DROP POLICY agency_rows ON ${table}`);
    const dropped = await stack.call('rest', 'agency-reports', 'bookings-by-city', MAY);
    expect(dropped).toMatchObject({ ok: false, code: 'SERVICE_UNAVAILABLE' });
    expect(logLines.join('\n')).toMatch(/policy of a table it reads was dropped/);
    await reporting.admin(
      `CREATE POLICY agency_rows ON ${table} USING (agency = current_setting('wildo.organization_id', true))`,
    );
    expect((await stack.call('rest', 'agency-reports', 'bookings-by-city', MAY)).data).toEqual(LISBON_FIRST);
    await reporting.admin(`ALTER TABLE ${table} DISABLE ROW LEVEL SECURITY`);
    expect(await stack.call('mcp', 'agency-reports', 'bookings-by-city', MAY)).toMatchObject({ ok: false });
    expect(logLines.join('\n')).toMatch(/row-level security was turned off/);
    await reporting.admin(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
    expect((await stack.call('mcp', 'agency-reports', 'bookings-by-city', MAY)).data).toEqual(LISBON_FIRST);
  });

  it('answers the report as the README says', async () => {
    // The README's setup line runs the same createAgencyReporting this file's stack did (its own test is its output).
    expect(readmeBlock('agency:reporting $ORG')).toContain('--filter @wildo/e2e agency:reporting');
    const { stdout } = await runReadmeBlock(readmeBlock('/agency-reports/bookings-by-city'), {
      API: `${stack.url}/api/v1`,
      TOKEN: stack.owner.user.token.reveal(),
      ORG: stack.organizationId,
    });
    expect((JSON.parse(stdout) as { data: unknown }).data).toEqual(LISBON_FIRST);
  });

  it('never shows the connection string, a driver message or a guest’s passport', async () => {
    expectAnswersLeakNothing(
      stack.outcomes.map((outcome) => outcome.raw),
      await reporting.rawRows('SELECT * FROM bookings LIMIT 3'),
    );
    const text = JSON.stringify(stack.outcomes.map((outcome) => outcome.raw));
    expect(text).not.toContain(reporting.schema);
    expect(text).not.toMatch(/postgres:\/\/|relation|permission denied|syntax/);
  });

  describe('refuses to start with a connection row-level security does not filter, naming the fix', () => {
    // The check runs before anything else is opened: a refused start opens no database at all.
    const startWith = async (dsn: string) => {
      try {
        const backend = await createWildoBackend({
          application: { name: 'reports', modules: [loadCapabilityManifest({ directory: REPORTING_MANIFEST })] },
          logger: createSilentLogger(),
          primarySecret: 'e2e-connectors-reporting-secret-0123456789abc',
          env: { REPORTING_DSN: dsn },
        });
        await backend.close();
        return undefined;
      } catch (error) {
        return error;
      }
    };

    it.each([
      [
        'a superuser',
        () => reporting.superuserDsn,
        /a superuser: row-level security does not apply to it; connect as a role without SUPERUSER/,
      ],
      ['a BYPASSRLS role', () => reporting.bypassDsn, /has BYPASSRLS.*NOBYPASSRLS/],
      ['the table’s owner', () => reporting.ownerDsn, /owns table .*bookings.*connect as a role that does not own it/],
    ])('%s', async (_label, dsn, fix) => {
      const refused = await startWith(dsn());
      expect(refused).toBeInstanceOf(ConnectorSetupError);
      expect((refused as Error).message).toMatch(fix);
      expect((refused as Error).message).not.toContain('postgres://');
    });

    it('and starts with the reader role: the same manifest answers in this file’s backend (the positive control)', async () => {
      expect((await stack.call('rest', 'wanderlust', 'bookings-by-city', MAY)).data).toEqual(LISBON_FIRST);
    });
  });
});
