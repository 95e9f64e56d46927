import { ResourceServerKind } from '@wildo/shared-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderExposureReport } from '../../cli/exposure.render.js';
import { referenceApplication } from '../../modules/index.js';
import { A2A_AUDIENCE, A2A_CONCIERGE_AUDIENCE, A2A_CONCIERGE_PATH, A2A_PATH } from '../../testing/a2a.fixtures.js';
import { buildExposureReport } from '../bootstrap/exposure-report.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';

const database = useTestDatabase();

describe('A2A agent cards', () => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await createTestBackend(database());
  });
  afterAll(() => t.close());

  it('serves the default card at both locations, listing every eligible actor system as a skill', async () => {
    const legacy = await t.api.get('/.well-known/agent.json');
    expect(legacy.status).toBe(200);
    expect(legacy.body).toMatchObject({ url: A2A_AUDIENCE, protocolVersion: '0.3.0', preferredTransport: 'JSONRPC' });
    const skills = (legacy.body.skills as { id: string }[]).map((skill) => skill.id);
    expect(skills).toContain('todo-assistant');
    const card = await t.api.get('/.well-known/agent-card.json');
    expect(card.body).toEqual(legacy.body);
    const under = await t.api.get(`${A2A_PATH}/.well-known/agent-card.json`);
    expect(under.body).toEqual(legacy.body);
  });

  it('serves the 1.0 card (supportedInterfaces, protobuf security schemes) to a client asking for 1.0', async () => {
    const res = await t.api.get(`${A2A_PATH}/.well-known/agent-card.json`).set('A2A-Version', '1.0');
    expect(res.status).toBe(200);
    expect(res.body.url).toBeUndefined();
    expect(res.body.supportedInterfaces).toEqual([
      { url: A2A_AUDIENCE, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: A2A_AUDIENCE, protocolBinding: 'JSONRPC', protocolVersion: '0.3.0' },
    ]);
    const scheme = res.body.securitySchemes.oauth2.oauth2SecurityScheme;
    expect(scheme.oauth2MetadataUrl).toBe('http://localhost:4241/.well-known/oauth-authorization-server');
    expect(scheme.description).toContain(A2A_AUDIENCE);
    expect(scheme.flows.authorizationCode.tokenUrl).toBe('http://localhost:4241/api/v1/oauth/token');
  });

  it('narrows the named concierge to its actorSystemRefs, with its own audience and metadata', async () => {
    const res = await t.api.get(`${A2A_CONCIERGE_PATH}/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Concierge', url: A2A_CONCIERGE_AUDIENCE });
    expect(res.body.skills.map((skill: { id: string }) => skill.id)).toEqual(['todo-assistant']);
    expect(res.body.securitySchemes.oauth2.description).toContain(A2A_CONCIERGE_AUDIENCE);
    const metadata = await t.api.get('/.well-known/oauth-protected-resource/api/v1/a2a/concierge');
    expect(metadata.status).toBe(200);
    expect(metadata.body.resource).toBe(A2A_CONCIERGE_AUDIENCE);
  });

  it('answers an unknown instance with 404 (card and endpoint), never with the default agent', async () => {
    expect((await t.api.get(`${A2A_PATH}/nope/.well-known/agent-card.json`)).status).toBe(404);
    const rpc = await t.api
      .post(`${A2A_PATH}/nope`)
      .send({ jsonrpc: '2.0', id: 1, method: 'message/send', params: {} });
    expect(rpc.status).toBe(404);
    // Positive control: the known instance answers (a challenge, since no credential was sent).
    const known = await t.api
      .post(A2A_CONCIERGE_PATH)
      .send({ jsonrpc: '2.0', id: 1, method: 'message/send', params: {} });
    expect(known.status).toBe(401);
    expect(known.headers['www-authenticate']).toContain(
      'resource_metadata="http://localhost:4241/.well-known/oauth-protected-resource/api/v1/a2a/concierge"',
    );
  });

  it('refuses to start when a named instance names an actor system that does not resolve', async () => {
    const application = {
      ...referenceApplication,
      resourceServerInstances: [
        ...(referenceApplication.resourceServerInstances ?? []),
        {
          ref: 'desk',
          kind: ResourceServerKind.A2A,
          displayName: 'Desk',
          actorSystemRefs: ['todo-assistant', 'no-such-system'],
        },
      ],
    };
    // The desk is the instance after the reference application's own.
    const index = application.resourceServerInstances.length - 1;
    await expect(createTestBackend(database(), { application })).rejects.toThrow(
      new RegExp(
        `A2A instance "desk" › resourceServerInstances\\[${index}\\]\\.actorSystemRefs\\[1\\]: "no-such-system" is not a registered ACTOR system.*register that system`,
      ),
    );
  });

  it('reports the A2A surface in `wildo exposure`: each agent, its endpoint and its skills', () => {
    const report = buildExposureReport(referenceApplication);
    expect(report.a2aAgents[0]).toMatchObject({ name: 'default', endpoint: '/a2a' });
    expect(report.a2aAgents[0]?.skills).toContain('todo-assistant');
    expect(report.a2aAgents.find((a) => a.name === 'concierge')).toEqual({
      name: 'concierge',
      endpoint: '/a2a/concierge',
      skills: ['todo-assistant'],
    });
    const text = renderExposureReport(report, { file: 'src/modules/index.ts', exportName: 'referenceApplication' });
    expect(text).toMatch(/A2A agents[^\n]*\n\s+AGENT\s+ENDPOINT\s+SKILLS\n\s+default\s+\/api\/v1\/a2a\s/);
    expect(text).toMatch(/concierge\s+\/api\/v1\/a2a\/concierge\s+todo-assistant/);
  });
});
