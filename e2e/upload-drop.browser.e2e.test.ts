import { createLogger, createWildoBackend, type UploadGrantResponse, type WildoBackend } from '@wildo/backend-api';
import { createPgliteDatabase, type SqlDatabase } from '@wildo/backend-api/persistence';
import { referenceApplication } from '@wildo/backend-api/reference-application';
import { freePort } from '@wildo/backend-api/testing/backend-process';
import { pgliteTemplateDump } from '@wildo/backend-api/testing/pglite-template';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedAppBuild } from '../frontend/browser/build-app.js';
import { CHROMIUM_AVAILABLE, launchChromium, type HeadlessChromium } from '../frontend/browser/headless-chromium.js';
import { createOrganization, describeAnswer, rest, signUp, type Person } from './oauth/rest-api.js';
import { referenceRuntimeOptions } from './reference-runtime.js';

/**
 * The upload drop page in Debian's Chromium against the real backend serving the built frontend: a knowledge
 * document's `document` field, from the REST grant through the page (drop, progress, status) to the parent write.
 */
describe.skipIf(!CHROMIUM_AVAILABLE)('the upload drop page against the real backend (Chromium)', () => {
  let frontendDist: string;
  let database: SqlDatabase;
  let backend: WildoBackend;
  let browser: HeadlessChromium;
  let baseUrl: string;
  let person: Person;
  let organizationId: string;

  beforeAll(async () => {
    frontendDist = await sharedAppBuild();
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const { runtime, env } = await referenceRuntimeOptions();
    // Links in grants name the configured public URLs: here, the address the backend listens on.
    const served = structuredClone(runtime);
    served.runtime.endPoints = {
      ...served.runtime.endPoints,
      main_backend_api: { publicUrl: baseUrl },
      main_frontend: { publicUrl: baseUrl },
    };
    database = await createPgliteDatabase({ loadDataDir: await pgliteTemplateDump() });
    backend = await createWildoBackend({
      application: referenceApplication,
      database,
      logger: createLogger({ level: 'silent' }),
      primarySecret: 'e2e-upload-primary-secret-0123456789-abcdefghij',
      runtime: served,
      env,
      publicUrl: baseUrl,
      frontendUrl: baseUrl,
      http: { frontendDist },
    });
    await backend.listen(port, '127.0.0.1');
    person = await signUp(baseUrl, 'uploader');
    organizationId = await createOrganization(baseUrl, person, 'Uploads');
    browser = await launchChromium({ width: 375, height: 740, mobile: true });
  });
  afterAll(async () => {
    await browser?.close();
    await backend?.close();
    await database?.close();
  });

  it('takes a dropped file from the grant’s page to a knowledge document', async () => {
    const documents = `/api/v1/organizations/${organizationId}/knowledge-documents`;
    const minted = await rest(baseUrl, 'POST', `${documents}/files/document/grant`, {
      token: person.accessToken,
      json: { mimeType: 'text/plain', expiresInMinutes: 5 },
    });
    expect(minted.status, describeAnswer(minted)).toBe(201);
    const grant = minted.body as UploadGrantResponse;
    expect(grant.uploadPageUrl?.startsWith(`${baseUrl}/uploads#grant=`)).toBe(true);

    const { page, pageErrors, serverErrors } = browser;
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    // Records whether a progress bar was ever shown (a local upload can finish between two polls).
    // (Page scripts are strings: this package type-checks for Node, without the DOM's types.)
    await page.addInitScript({
      content: `window.uploadSeen = { progress: false };
        new MutationObserver(() => { if (document.querySelector('progress')) window.uploadSeen.progress = true; })
          .observe(document, { childList: true, subtree: true });`,
    });
    // Without its fragment the link is refused on the page, before anything is asked of the backend.
    await page.goto(`${baseUrl}/uploads`);
    await page.getByText('This upload link is incomplete.').waitFor();
    await page.goto(grant.uploadPageUrl ?? '');
    await page.getByText('Drop one file here').waitFor();

    // A type the field refuses is stopped on the page; nothing is sent and the grant stays usable.
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'photo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await page.getByText('This file cannot be uploaded here.').waitFor();

    const dataTransfer = await page.evaluateHandle(`(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['Opening hours: 9 to 5.'], 'hours.txt', { type: 'text/plain' }));
      return transfer;
    })()`);
    await page.dispatchEvent('[data-testid="dropzone"]', 'dragover', { dataTransfer });
    await page.dispatchEvent('[data-testid="dropzone"]', 'drop', { dataTransfer });
    await page.getByText('Uploaded: hours.txt').waitFor();
    expect(await page.evaluate('window.uploadSeen')).toEqual({ progress: true });
    // The grant travelled in the upload's header only: no URL the page requested carries it.
    expect(requested.filter((url) => url.includes(grant.uploadHeader.value))).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(serverErrors).toEqual([]);

    const status = await rest(baseUrl, 'GET', new URL(grant.statusUrl).pathname);
    expect(status.body).toMatchObject({ state: 'redeemed', file: { name: 'hours.txt', mediaType: 'text/plain' } });
    const documentValue = { fileId: status.body.file.fileId as string, updatedAt: new Date().toISOString() };
    const created = await rest(baseUrl, 'POST', documents, {
      token: person.accessToken,
      json: { title: 'Opening hours', document: documentValue },
    });
    expect(created.status, describeAnswer(created)).toBe(201);
    const read = await rest(baseUrl, 'GET', `${documents}/${created.body.data._id as string}`, {
      token: person.accessToken,
    });
    expect(read.body.data.document).toEqual(documentValue);
  });
});
