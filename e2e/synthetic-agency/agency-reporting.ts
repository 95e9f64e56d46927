import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The agency's reporting database on a shared PostgreSQL server: a schema and roles of its own, removed by `drop`. */
export interface AgencyReporting {
  schema: string;
  /** A login role with SELECT only: row-level security filters it (the connection a binding should use). */
  readerDsn: string;
  /** A login role with BYPASSRLS (refused at start). */
  bypassDsn: string;
  /** A login role that owns the bookings table through membership (refused at start). */
  ownerDsn: string;
  /** The server's own connection, a superuser on the test server (refused at start). Each DSN reads the schema first. */
  superuserDsn: string;
  /** Adds bookings of one agency (an organization id): `[city, month, count]`. */
  seed(agency: string, rows: readonly (readonly [string, string, number])[]): Promise<void>;
  /** Runs SQL as the server's superuser (a test drops and restores the policy). */
  admin(sql: string): Promise<void>;
  /** Reads rows as the server's superuser, row security bypassed: what a careless pass-through would show. */
  rawRows(sql: string): Promise<unknown[]>;
  drop(): Promise<void>;
}

/** The server's URL as another role, with the agency's schema first on its search path. */
function dsnAs(connectionString: string, role: string | undefined, schema: string): string {
  const url = new URL(connectionString);
  if (role) {
    url.username = role;
    url.password = '';
  }
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/**
 * Creates the synthetic agency's reporting schema with row-level security: `bookings` (agency, city, month and the
 * guest's name and passport, which no report names), owned by a role that never logs in, with a policy that shows
 * a caller only the rows of the organization in `wildo.organization_id`; and `bookings_by_city_v`, a
 * security-invoker view counting bookings per city and month. Roles and schema get a random name on the shared
 * server.
 */
export async function createAgencyReporting(connectionString: string): Promise<AgencyReporting> {
  const schema = `agency_${randomBytes(5).toString('hex')}`;
  const roles = {
    owner: `${schema}_owner`,
    reader: `${schema}_reader`,
    bypass: `${schema}_bypass`,
    ownerLogin: `${schema}_owner_login`,
  };
  const run = async (sql: string, values: unknown[] = []): Promise<unknown[]> => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      return (await client.query(sql, values)).rows;
    } finally {
      await client.end();
    }
  };
  await run(`
    CREATE ROLE ${roles.owner} NOLOGIN;
    CREATE ROLE ${roles.reader} LOGIN;
    CREATE ROLE ${roles.bypass} LOGIN BYPASSRLS;
    CREATE ROLE ${roles.ownerLogin} LOGIN IN ROLE ${roles.owner};
    CREATE SCHEMA ${schema} AUTHORIZATION ${roles.owner};
    CREATE TABLE ${schema}.bookings (
      id serial PRIMARY KEY, agency text NOT NULL, city text NOT NULL, month text NOT NULL,
      guest_name text NOT NULL, guest_passport text NOT NULL);
    ALTER TABLE ${schema}.bookings OWNER TO ${roles.owner};
    ALTER TABLE ${schema}.bookings ENABLE ROW LEVEL SECURITY;
    CREATE POLICY agency_rows ON ${schema}.bookings USING (agency = current_setting('wildo.organization_id', true));
    CREATE VIEW ${schema}.bookings_by_city_v WITH (security_invoker = true) AS
      SELECT city, month, count(*) AS bookings FROM ${schema}.bookings GROUP BY city, month;
    ALTER VIEW ${schema}.bookings_by_city_v OWNER TO ${roles.owner};
    GRANT USAGE ON SCHEMA ${schema} TO ${roles.reader}, ${roles.bypass};
    GRANT SELECT ON ${schema}.bookings, ${schema}.bookings_by_city_v TO ${roles.reader}, ${roles.bypass};`);
  return {
    schema,
    readerDsn: dsnAs(connectionString, roles.reader, schema),
    bypassDsn: dsnAs(connectionString, roles.bypass, schema),
    ownerDsn: dsnAs(connectionString, roles.ownerLogin, schema),
    superuserDsn: dsnAs(connectionString, undefined, schema),
    async seed(agency, rows) {
      for (const [city, month, count] of rows)
        for (let i = 0; i < count; i++)
          await run(
            `INSERT INTO ${schema}.bookings (agency, city, month, guest_name, guest_passport) VALUES ($1, $2, $3, $4, $5)`,
            [agency, city, month, `Guest ${i}`, `DEMO-PASS-${String(100_000 + i)}`],
          );
    },
    admin: async (sql) => {
      await run(sql);
    },
    rawRows: (sql) => run(sql.replaceAll('bookings', `${schema}.bookings`)),
    async drop() {
      await run(`
        SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE usename IN ('${roles.reader}', '${roles.bypass}', '${roles.ownerLogin}');
        DROP SCHEMA IF EXISTS ${schema} CASCADE;
        DROP ROLE IF EXISTS ${roles.reader}; DROP ROLE IF EXISTS ${roles.bypass};
        DROP ROLE IF EXISTS ${roles.ownerLogin}; DROP ROLE IF EXISTS ${roles.owner};`);
    },
  };
}
