import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './build-app';
import { CHROMIUM_AVAILABLE, launchChromium, type HeadlessChromium } from './headless-chromium';
import { STUB_UPLOAD_GRANT, startUploadStub, type UploadStub } from './upload-stub.server';

describe.skipIf(!CHROMIUM_AVAILABLE)('the upload drop page in Chromium (built app, stub upload routes)', () => {
  let outDir: string;
  let stub: UploadStub;
  let browser: HeadlessChromium;

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'wildo-uploads-dist-'));
    await buildApp(outDir);
    stub = await startUploadStub(outDir);
    browser = await launchChromium({ width: 375, height: 740, mobile: true });
  });
  afterAll(async () => {
    await browser?.close();
    await stub?.close();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  it('says so when the link is incomplete', async () => {
    await browser.page.goto(`${stub.url}/uploads`);
    await expect(browser.page.getByRole('alert').textContent()).resolves.toContain('This upload link is incomplete.');
  });

  it('refuses a file outside the field, then uploads a dropped file with progress and shows it redeemed', async () => {
    const { page, pageErrors } = browser;
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const hash = new URLSearchParams({ grant: STUB_UPLOAD_GRANT.token, status: stub.statusUrl }).toString();
    await page.goto(`${stub.url}/uploads#${hash}`);
    await page.getByText('Drop one file here').waitFor();
    await expect(page.getByText('text/plain, application/pdf · at most 2.0 KB').count()).resolves.toBe(1);

    // Chosen through the file input: checked against the field before anything is sent.
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'photo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await page.getByText('This file cannot be uploaded here.').waitFor();
    expect(stub.uploads).toEqual([]);

    // Dropped onto the zone: sent with the grant header; the answer is held to show the progress state.
    const gate = stub.hold();
    const dataTransfer = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['meeting notes, page 1'], 'notes.txt', { type: 'text/plain' }));
      return transfer;
    });
    await page.dispatchEvent('[data-testid="dropzone"]', 'dragover', { dataTransfer });
    await page.dispatchEvent('[data-testid="dropzone"]', 'drop', { dataTransfer });
    await gate.received;
    await page.getByText('Uploading notes.txt…').waitFor();
    await expect(page.getByRole('progressbar', { name: 'Upload progress' }).count()).resolves.toBe(1);
    gate.release();

    await page.getByText('Uploaded: notes.txt').waitFor();
    await expect(page.getByText('file_0001').count()).resolves.toBe(1);
    expect(stub.uploads).toEqual([
      { grantHeader: STUB_UPLOAD_GRANT.token, name: 'notes.txt', type: 'text/plain', text: 'meeting notes, page 1' },
    ]);
    // The grant never left the fragment: no request the page made carried it in a URL.
    expect(requested.filter((url) => url.includes(STUB_UPLOAD_GRANT.token))).toEqual([]);
    expect(requested).toContain(stub.statusUrl);
    expect(pageErrors).toEqual([]);
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  });
});
