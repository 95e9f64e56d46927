import { CORE_ORG_ROLES, defineResource, ResourceOperationVariantType, ResourcePrimaryScope } from '@wildo/shared-lib';
import {
  APPROVALS_PAGE_PATH,
  createLogger,
  createWildoBackend,
  defineBackendApplication,
  type BackendDomainModule,
  type WildoBackend,
} from '@wildo/backend-api';
import { createPgliteDatabase, type SqlDatabase } from '@wildo/backend-api/persistence';
import { referenceApplication } from '@wildo/backend-api/reference-application';
import { freePort } from '@wildo/backend-api/testing/backend-process';
import { pgliteTemplateDump } from '@wildo/backend-api/testing/pglite-template';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sharedAppBuild } from '../frontend/browser/build-app.js';
import { CHROMIUM_AVAILABLE, launchChromium, type HeadlessChromium } from '../frontend/browser/headless-chromium.js';
import { createOrganization, describeAnswer, rest, signUp, type Person } from './oauth/rest-api.js';
import { referenceRuntimeOptions } from './reference-runtime.js';

/** Payouts an application declares with `approval: { required: true }`, as an outside application would. */
const payouts = defineResource({
  type: 'payouts',
  displayName: 'Supplier payouts',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: z.object({ note: z.string().max(100) }),
  customOperations: {
    send: {
      target: 'collection',
      requestSchema: z.object({
        supplier: z.string().min(1).max(60).meta({ title: 'Supplier', description: 'Who receives the money.' }),
        amount: z.number().positive().meta({ title: 'Amount (EUR)' }),
      }),
      responseSchema: z.object({ sent: z.number() }),
      effect: 'irreversible',
      description: 'Sends money to a supplier.',
    },
  },
  operationsConfiguration: {
    send: {
      variants: [
        {
          variantType: ResourceOperationVariantType.API_CALL,
          roles: [CORE_ORG_ROLES.ORG_MEMBER],
          approval: { required: true },
        },
      ],
    },
  },
});
let sent = 0;
const payoutsModule: BackendDomainModule = {
  name: 'payouts',
  resources: [payouts],
  customServiceImplementations: [
    payouts.implement({
      send: async ({ input }) => {
        sent += 1;
        return { sent: input.amount };
      },
    }),
  ],
};

/**
 * The approvals page in Debian's Chromium against the real backend serving the built frontend: a REST call that
 * needs approval answers 428 with the page's link; the person reads what the call will send there and approves;
 * the retried call runs once.
 */
describe.skipIf(!CHROMIUM_AVAILABLE)('the approvals page against the real backend (Chromium)', () => {
  let database: SqlDatabase;
  let backend: WildoBackend;
  let browser: HeadlessChromium;
  let baseUrl: string;
  let person: Person;
  let organizationId: string;

  beforeAll(async () => {
    const frontendDist = await sharedAppBuild();
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const { runtime, env } = await referenceRuntimeOptions();
    const served = structuredClone(runtime);
    served.runtime.endPoints = {
      ...served.runtime.endPoints,
      main_backend_api: { publicUrl: baseUrl },
      main_frontend: { publicUrl: baseUrl },
    };
    database = await createPgliteDatabase({ loadDataDir: await pgliteTemplateDump() });
    backend = await createWildoBackend({
      application: defineBackendApplication({
        ...referenceApplication,
        modules: [...referenceApplication.modules, payoutsModule],
      }),
      database,
      logger: createLogger({ level: 'silent' }),
      primarySecret: 'e2e-approvals-primary-secret-0123456789-abcdefgh',
      runtime: served,
      env,
      publicUrl: baseUrl,
      frontendUrl: baseUrl,
      http: { frontendDist },
    });
    await backend.listen(port, '127.0.0.1');
    person = await signUp(baseUrl, 'approver');
    organizationId = await createOrganization(baseUrl, person, 'Payouts');
    browser = await launchChromium({ width: 1024, height: 800 });
  });
  afterAll(async () => {
    await browser?.close();
    await backend?.close();
    await database?.close();
  });

  it('shows the waiting call with its surface, display name and arguments, and the approved call runs once', async () => {
    const path = `/api/v1/organizations/${organizationId}/payouts/send`;
    const body = { supplier: 'Lisbon Linen Co.', amount: 1250 };
    const asked = await rest(baseUrl, 'POST', path, { token: person.accessToken, json: body });
    expect(asked.status, describeAnswer(asked)).toBe(428);
    const approval = asked.body.error.approval as { id: string; decideAt: string };
    expect(approval.decideAt).toBe(`${baseUrl}${APPROVALS_PAGE_PATH}#${approval.id}`);
    expect(sent).toBe(0);

    const { page, pageErrors, serverErrors } = browser;
    await page.addInitScript(
      `window.sessionStorage.setItem('wildo.accessToken', ${JSON.stringify(person.accessToken)});`,
    );
    await page.goto(approval.decideAt);
    const card = page.getByRole('article', { name: 'Send: Supplier payouts' });
    await card.waitFor();
    await card.getByText('Asked by an app or script using the API. It cannot be undone.').waitFor();
    expect(await card.getByLabel('Supplier').inputValue()).toBe('Lisbon Linen Co.');
    expect(await card.getByLabel('Amount (EUR)').inputValue()).toBe('1250');
    await card.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('status').getByText('Send: Supplier payouts approved').waitFor();
    await page.getByText('Nothing is waiting for your approval.').waitFor();
    expect(pageErrors).toEqual([]);
    expect(serverErrors).toEqual([]);

    const ran = await rest(baseUrl, 'POST', path, {
      token: person.accessToken,
      json: body,
      headers: { 'Approval-Id': approval.id },
    });
    expect(ran.status, describeAnswer(ran)).toBe(200);
    expect(sent).toBe(1);
  });
});
