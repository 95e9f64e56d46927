import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSyntheticAgency, type SyntheticAgency } from '../../../e2e/synthetic-agency/agency-api.js';
import { createAgencyReporting, type AgencyReporting } from '../../../e2e/synthetic-agency/agency-reporting.js';
import type { ContractCheck, ContractFile } from '../engine/toolchain/index.js';
import { runWildoCli } from './wildo.cli.js';

// Recorded scenarios against the synthetic agency: a manifest of two reads is recorded, then verified while the
// agency's answers gain, lose and retype fields; adopt declares a gained field only when a person said so.

const FIXTURE = path.join(import.meta.dirname, 'toolchain-fixtures', 'wanderlust-manifest');
let agency: SyntheticAgency;
let dir: string;
let manifest: string;
let env: Record<string, string>;

beforeAll(async () => {
  agency = await startSyntheticAgency();
  dir = await mkdtemp(path.join(tmpdir(), 'wildo-verify-'));
  manifest = path.join(dir, 'manifest');
  await cp(FIXTURE, manifest, { recursive: true });
  env = { SHOWCASE_API_URL: agency.url };
  const recorded = await cli('verify', '--record');
  expect(recorded.exitCode, recorded.stdout + recorded.stderr).toBe(0);
});
afterEach(() => {
  agency.rewrite = undefined;
});
afterAll(async () => {
  await agency?.close();
  await rm(dir, { recursive: true, force: true });
});

function cli(command: string, ...args: string[]) {
  return runWildoCli([command, '--manifest', 'manifest', ...args], { cwd: dir, env });
}

/** Every file of the manifest directory with its bytes, to prove a command wrote nothing. */
async function snapshotFiles(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(manifest, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const file = path.join(entry.parentPath, entry.name);
      files[path.relative(manifest, file)] = await readFile(file, 'utf8');
    }
  return files;
}

async function verdicts(...args: string[]) {
  const result = await cli('verify', '--json', ...args);
  const checks = (JSON.parse(result.stdout || '{"checks":[]}') as { checks: ContractCheck[] }).checks;
  const of = (id: string) => checks.find((c) => c.capability === id) as ContractCheck;
  return { exitCode: result.exitCode, of, stderr: result.stderr };
}

/** Rewrites the availability answer only. */
function rewriteAvailability(change: (body: Record<string, unknown>) => Record<string, unknown>) {
  agency.rewrite = (route, body) =>
    route === 'GET /v1/availability' ? change({ ...(body as Record<string, unknown>) }) : body;
}

describe('wildo verify --record', () => {
  it('records paths and types of each answer, never a value', async () => {
    const contract = JSON.parse(await readFile(path.join(manifest, 'wildo.contract.json'), 'utf8')) as ContractFile;
    expect(contract.capabilities['wanderlust.availability']?.answer).toContainEqual({
      path: 'roomsFree',
      type: 'number',
    });
    expect(contract.capabilities['wanderlust.search']?.answer).toContainEqual({ path: 'stays[].name', type: 'string' });
    const text = JSON.stringify(contract.capabilities['wanderlust.search']?.answer);
    for (const value of ['Casa Alfama', '118', 'passport']) expect(text).not.toContain(value);
  });
});

describe('wildo verify', () => {
  it('is green on the recorded answers and writes nothing', async () => {
    const before = await snapshotFiles();
    const result = await cli('verify');
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('  green       wanderlust.availability');
    expect(result.stdout).toContain('2 green, 0 yellow, 0 red, 0 unrecorded');
    expect(await snapshotFiles()).toEqual(before);
  });

  it('is yellow on a gained field, exit 0; --strict exits 1', async () => {
    rewriteAvailability((body) => ({ ...body, wifi: true }));
    const plain = await verdicts();
    expect(plain.exitCode).toBe(0);
    expect(plain.of('wanderlust.availability')).toMatchObject({
      status: 'yellow',
      gained: [{ path: 'wifi', type: 'boolean' }],
    });
    expect(plain.of('wanderlust.search').status).toBe('green');
    expect((await verdicts('--strict')).exitCode).toBe(1);
  });

  it('is red on a lost field (and the declared value it filled), exit 1', async () => {
    rewriteAvailability(({ roomsFree: _dropped, ...body }) => body);
    const result = await verdicts();
    expect(result.exitCode).toBe(1);
    expect(result.of('wanderlust.availability')).toMatchObject({
      status: 'red',
      lost: [{ path: 'roomsFree', type: 'number' }],
      problems: [expect.stringContaining('availability.roomsFree')],
    });
  });

  it('is red on a retyped field, exit 1', async () => {
    rewriteAvailability((body) => ({ ...body, pricePerNight: String(body.pricePerNight) }));
    const result = await verdicts();
    expect(result.exitCode).toBe(1);
    expect(result.of('wanderlust.availability').retyped).toEqual([
      { path: 'pricePerNight', before: 'number', after: 'string' },
    ]);
  });

  it('is red when the backend cannot be reached', async () => {
    const result = await runWildoCli(['verify', '--manifest', 'manifest'], {
      cwd: dir,
      env: { SHOWCASE_API_URL: 'http://127.0.0.1:9' },
    });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('the call failed');
  });
});

describe('wildo exposure on the recorded manifest', () => {
  it('lists each connector-bound capability and the observed paths its binding withholds', async () => {
    const result = await runWildoCli(['exposure', '--json', '--manifest', 'manifest'], { cwd: dir, env });
    expect(result.exitCode, result.stderr).toBe(0);
    const { connectors } = JSON.parse(result.stdout) as {
      connectors: { capability: string; call: string; read: string[]; observedWithheld: string[] | null }[];
    };
    const search = connectors.find((c) => c.capability === 'wanderlust.search-capability');
    expect(search).toMatchObject({ call: 'POST /v1/stays/search', read: expect.arrayContaining(['stays[].name']) });
    const availability = connectors.find((c) => c.capability === 'wanderlust.availability');
    expect(availability?.observedWithheld).toEqual(expect.arrayContaining(['margin', 'commission']));
    expect(availability?.observedWithheld).not.toContain('roomsFree');
    const human = await runWildoCli(['exposure', '--manifest', 'manifest'], { cwd: dir, env });
    expect(human.stdout).toContain('Connector-backed capabilities');
    expect(human.stdout).toMatch(
      /wanderlust\.availability\n {4}reads {5}date, pricePerNight, propertyId, roomsFree\n {4}withheld  commission, margin/,
    );
  });
});

describe('wildo adopt', () => {
  it('writes nothing and exits 1 with no terminal and no answers', async () => {
    rewriteAvailability((body) => ({ ...body, wifi: true }));
    const before = await snapshotFiles();
    const result = await cli('adopt');
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain(
      'wanderlust.availability gained wifi: declare wanderlust.Availability.wifi (boolean, optional), mapped from $.wifi',
    );
    expect(result.stderr).toContain('nothing was written');
    expect(await snapshotFiles()).toEqual(before);
  });

  it('declares the field with scripted answers, and verify is green again', async () => {
    rewriteAvailability((body) => ({ ...body, wifi: true }));
    const answers = path.join(dir, 'answers.json');
    await writeFile(
      answers,
      JSON.stringify({
        'wanderlust.availability': { wifi: { adopt: true, description: 'Whether the stay has wifi.' } },
      }),
    );
    const result = await cli('adopt', '--answers', answers);
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    const resource = await readFile(path.join(manifest, 'wanderlust.Availability.resource.yaml'), 'utf8');
    expect(resource).toContain(
      'wifi:\n      type: boolean\n      required: false\n      description: Whether the stay has wifi.',
    );
    const binding = await readFile(path.join(manifest, 'bindings', 'wanderlust.availability.binding.yaml'), 'utf8');
    expect(binding).toContain('wifi: $.wifi');
    expect(binding).toContain('# How');
    const after = await verdicts('--strict');
    expect(after.of('wanderlust.availability').status).toBe('green');
    expect(after.exitCode).toBe(0);
  });
});

const REPORTING_MANIFEST = path.resolve(import.meta.dirname, '../../../e2e/synthetic-agency/reporting-manifest');
const databaseUrl = process.env.DATABASE_URL;

describe.skipIf(!databaseUrl?.startsWith('postgres'))('wildo verify on a SQL binding (row-level security)', () => {
  let reporting: AgencyReporting;
  let contracts: string;
  const run = (...args: string[]) =>
    runWildoCli(['verify', '--manifest', REPORTING_MANIFEST, '--contracts', contracts, ...args], {
      cwd: dir,
      env: { REPORTING_DSN: reporting.readerDsn },
    });

  beforeAll(async () => {
    reporting = await createAgencyReporting(databaseUrl as string);
    await reporting.seed('org-a', [['Lisbon', '2026-11', 4]]);
    contracts = path.join(dir, 'reporting.contract.json');
    await writeFile(
      contracts,
      JSON.stringify({
        capabilities: { 'wanderlust.bookings-by-city': { input: { month: '2026-11' }, organizationId: 'org-a' } },
      }),
    );
    const recorded = await run('--record');
    expect(recorded.exitCode, recorded.stdout + recorded.stderr).toBe(0);
  });
  afterAll(async () => {
    await reporting?.drop();
  });

  it('records the guarded tables, is green while the policy holds and red once it is dropped', async () => {
    const contract = JSON.parse(await readFile(contracts, 'utf8')) as ContractFile;
    expect(contract.capabilities['wanderlust.bookings-by-city']?.rls).toContainEqual({
      table: `${reporting.schema}.bookings`,
      policies: 1,
    });
    expect((await run()).exitCode).toBe(0);
    await reporting.admin(`DROP POLICY agency_rows ON ${reporting.schema}.bookings`);
    try {
      const dropped = await run('--json');
      expect(dropped.exitCode).toBe(1);
      const check = (JSON.parse(dropped.stdout) as { checks: ContractCheck[] }).checks[0];
      expect(check).toMatchObject({ capability: 'wanderlust.bookings-by-city', status: 'red' });
      expect(check?.problems.join(' ')).toMatch(/row-level security|polic/);
    } finally {
      await reporting.admin(
        `CREATE POLICY agency_rows ON ${reporting.schema}.bookings USING (agency = current_setting('wildo.organization_id', true))`,
      );
    }
    expect((await run()).exitCode).toBe(0);
  });
});
