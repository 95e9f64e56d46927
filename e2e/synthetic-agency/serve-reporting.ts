import pg from 'pg';
import { createAgencyReporting } from './agency-reporting.js';

// `pnpm --filter @wildo/e2e agency:reporting <organizationId>`: creates the agency's reporting schema on DATABASE_URL
// (bookings under row-level security, a reading role), seeds a month of bookings for that organization and for
// another agency, and prints the connection string of the reading role. `--drop <schema>` removes one again.
const url = process.env.DATABASE_URL;
if (!url) {
  process.stderr.write('Set DATABASE_URL to a PostgreSQL server where you may create roles and schemas.\n');
  process.exit(2);
}
const [first, second] = process.argv.slice(2);
if (first === '--drop') {
  const schema = second ?? '';
  if (!/^agency_[0-9a-f]{10}$/.test(schema))
    throw new Error('--drop takes a schema this script created (agency_<hex>).');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const roles = ['reader', 'bypass', 'owner_login', 'owner'].map((suffix) => `${schema}_${suffix}`);
  await client.query(
    `DROP SCHEMA IF EXISTS ${schema} CASCADE; ${roles.map((role) => `DROP ROLE IF EXISTS ${role};`).join(' ')}`,
  );
  await client.end();
  process.stdout.write(`dropped ${schema} and its roles\n`);
} else {
  if (!first) throw new Error('Pass the id of the organization whose bookings to seed (ORG in the README tour).');
  const reporting = await createAgencyReporting(url);
  await reporting.seed(first, [
    ['Lisbon', '2027-05', 5],
    ['Porto', '2027-05', 3],
    ['Seville', '2027-05', 2],
  ]);
  await reporting.seed('another-agency', [['Madrid', '2027-05', 4]]);
  process.stdout.write(`TRAVEL_AGENCY_REPORTING_DSN=${reporting.readerDsn}\n`);
  process.stderr.write(
    `schema ${reporting.schema}; remove it with: pnpm --filter @wildo/e2e agency:reporting --drop ${reporting.schema}\n`,
  );
}
