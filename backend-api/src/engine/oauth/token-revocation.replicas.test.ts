import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCredentialsToken, createMachineClient } from '../../testing/credentials.fixtures.js';
import { addMember, createOrganization, signUp, type TestUser } from '../../testing/identity.fixtures.js';
import { handshake, MCP_BACKEND_OPTIONS, MCP_PATH, rpc } from '../../testing/mcp.fixtures.js';
import { delegateTo, registerPublicClient } from '../../testing/oauth.fixtures.js';
import { createTestBackend, type TestBackend } from '../../testing/test-backend.js';
import { SAAS_SERVICE_TYPES } from '../container/saas-service-types.tokens.js';
import type { CoordinationBackend } from '../coordination/coordination.js';
import { CREDENTIAL_CHANGED_CHANNEL } from '../credentials/credentials.resource-types.js';
import { USER_CHANGED_CHANNEL } from '../identity/sql-principal-directory.service.js';
import { createPostgresDatabase } from '../persistence/postgres-database.js';
import {
  createPostgresTestSchema,
  postgresTestUrl,
  type PostgresTestSchema,
} from '../persistence/postgres-test-schema.js';
import type { SqlDatabase } from '../persistence/sql-database.js';
import { TOKEN_REVOKED_CHANNEL } from '../identity/token-revocations.service.js';

const databaseUrl = postgresTestUrl();
const redisUrl = process.env.REDIS_URL;
/** How long an announcement may take to cross Redis before the test fails (a bound, not a sleep). */
const DELIVERY_DEADLINE_MS = 5_000;

/**
 * Two replicas of the reference application on one PostgreSQL schema and one Redis namespace: a revocation
 * made through replica A is enforced by replica B as soon as B received the announcement.
 */
describe.skipIf(!databaseUrl || !redisUrl)('revocation on two replicas (PostgreSQL + Redis)', () => {
  let schema: PostgresTestSchema;
  const databases: SqlDatabase[] = [];
  const replicas: TestBackend[] = [];
  let a: TestBackend;
  let b: TestBackend;
  let admin: TestUser;
  let orgId: string;
  const options = {
    ...MCP_BACKEND_OPTIONS,
    redisUrl: redisUrl as string,
    coordinationKeyPrefix: `test:revocations:${randomUUID()}:`,
  };

  /** A replica with its own connection pool on the shared schema. */
  async function replica(): Promise<TestBackend> {
    const database = await createPostgresDatabase({
      connectionString: databaseUrl as string,
      searchPath: schema.schema,
      maxConnections: 4,
    });
    databases.push(database);
    const backend = await createTestBackend(database, options);
    replicas.push(backend);
    return backend;
  }

  beforeAll(async () => {
    schema = await createPostgresTestSchema(databaseUrl as string);
    a = await replica();
    b = await replica();
    admin = await signUp(a.api, 'admin');
    orgId = await createOrganization(a.api, admin);
  });

  afterAll(async () => {
    for (const backend of replicas) await backend.close();
    for (const database of databases) await database.close();
    await schema?.drop();
  });

  /**
   * Resolves once replica B received the next message on `channel` that `matches`. B's own service subscribed
   * at start, before this handler, and local handlers run in subscription order within one delivery: when this
   * resolves, B has applied the message.
   */
  async function receivedByB(channel: string, matches: (message: string) => boolean): Promise<() => Promise<void>> {
    const coordination = b.backend.container.get<CoordinationBackend>(SAAS_SERVICE_TYPES.Coordination);
    let resolve!: () => void;
    const received = new Promise<void>((r) => (resolve = r));
    const unsubscribe = await coordination.subscribe(channel, (message) => matches(message) && resolve());
    return async () => {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>(
        (_, reject) =>
          (timer = setTimeout(
            () => reject(new Error(`no ${channel} announcement reached replica B`)),
            DELIVERY_DEADLINE_MS,
          )),
      );
      try {
        await Promise.race([received, deadline]);
      } finally {
        clearTimeout(timer);
        await unsubscribe();
      }
    };
  }

  const revocationOf = (id: string) => (message: string) => message.includes(id);
  const todos = () => `/api/v1/organizations/${orgId}/todos`;
  const rest = async (t: TestBackend, authorization: string) =>
    (await t.api.get(todos()).set('Authorization', authorization)).status;
  const mcp = async (t: TestBackend, authorization: string) =>
    (await handshake(t.api, MCP_PATH, rpc('tools/list'), authorization)).status;

  async function machineClient(): Promise<{ id: string; token: string }> {
    const client = await createMachineClient(a.api, admin, orgId);
    return { id: client.clientId, token: await clientCredentialsToken(a.api, client) };
  }

  const delegate = (person: TestUser, clientId: string, remember = false) =>
    delegateTo(a.api, person, clientId, { remember });

  it('an OAuth client deleted on A: its token, verified on B before, is refused on B; another client’s still works', async () => {
    const [doomed, kept] = [await machineClient(), await machineClient()];
    expect(await rest(b, doomed.token)).toBe(200);
    const delivered = await receivedByB(TOKEN_REVOKED_CHANNEL, revocationOf(doomed.id));
    expect(
      (await a.api.delete(`/api/v1/organizations/${orgId}/oauth-clients/${doomed.id}`).set(admin.auth)).status,
    ).toBe(200);
    await delivered();
    expect(await rest(b, doomed.token)).toBe(401);
    expect(await rest(b, kept.token)).toBe(200);
  });

  it('a consent withdrawn on A: the delegated token is refused on B; a token for another client still works', async () => {
    const person = await signUp(a.api, 'person');
    const [withdrawn, kept] = [await registerPublicClient(a.api), await registerPublicClient(a.api)];
    const [lost, still] = [await delegate(person, withdrawn, true), await delegate(person, kept, true)];
    expect(await mcp(b, lost)).toBe(200);
    const grant = (await a.api.get('/api/v1/oauth-consent-grants').query({ clientId: withdrawn }).set(person.auth)).body
      .data[0];
    const delivered = await receivedByB(TOKEN_REVOKED_CHANNEL, revocationOf(withdrawn));
    expect((await a.api.delete(`/api/v1/oauth-consent-grants/${grant._id}`).set(person.auth)).status).toBe(200);
    await delivered();
    expect(await mcp(b, lost)).toBe(401);
    expect(await mcp(b, still)).toBe(200);
  });

  it('a member removed on A: their token and delegated MCP token are refused on B; another member’s still work', async () => {
    const [leaving, staying] = [await signUp(a.api, 'leaving'), await signUp(a.api, 'staying')];
    await addMember(a.api, admin, orgId, leaving, 'ORG_MEMBER');
    await addMember(a.api, admin, orgId, staying, 'ORG_MEMBER');
    const tool = await registerPublicClient(a.api);
    const [lost, still] = [await delegate(leaving, tool), await delegate(staying, tool)];
    expect(await rest(b, leaving.auth.Authorization)).toBe(200);
    expect(await mcp(b, lost)).toBe(200);
    const delivered = await receivedByB(USER_CHANGED_CHANNEL, (userId) => userId === leaving.userId);
    expect(
      (await a.api.delete(`/api/v1/organizations/${orgId}/members/${leaving.userId}`).set(admin.auth)).status,
    ).toBe(200);
    await delivered();
    expect(await rest(b, leaving.auth.Authorization)).toBe(401);
    expect(await mcp(b, lost)).toBe(401);
    expect(await rest(b, staying.auth.Authorization)).toBe(200);
    expect(await mcp(b, still)).toBe(200);
  });

  it('an API key deleted on A is refused on B; another key still works', async () => {
    const create = async () =>
      (
        await a.api
          .post(`/api/v1/organizations/${orgId}/api-keys`)
          .set(admin.auth)
          .send({ name: 'ci', roles: ['ORG_MEMBER'] })
      ).body.data;
    const [doomed, kept] = [await create(), await create()];
    expect(await rest(b, doomed.plainKey)).toBe(200);
    const delivered = await receivedByB(CREDENTIAL_CHANGED_CHANNEL, (id) => id === doomed._id);
    expect((await a.api.delete(`/api/v1/organizations/${orgId}/api-keys/${doomed._id}`).set(admin.auth)).status).toBe(
      200,
    );
    await delivered();
    expect(await rest(b, doomed.plainKey)).toBe(401);
    expect(await rest(b, kept.plainKey)).toBe(200);
  });

  it('a replica started after a revocation loads it: the token is refused there, another client’s works', async () => {
    const [doomed, kept] = [await machineClient(), await machineClient()];
    expect(
      (await a.api.delete(`/api/v1/organizations/${orgId}/oauth-clients/${doomed.id}`).set(admin.auth)).status,
    ).toBe(200);
    const late = await replica();
    expect(await rest(late, doomed.token)).toBe(401);
    expect(await rest(late, kept.token)).toBe(200);
  });
});
