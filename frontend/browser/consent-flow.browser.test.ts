import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedAppBuild } from './build-app';
import { CHROMIUM_AVAILABLE, launchChromium } from './headless-chromium';
import { STUB_CLIENT, STUB_RESOURCE, STUB_USER, startStubBackend, type StubBackend } from './stub-backend.server';

const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
const STATE = 'state-7f3a';
const AUTHORIZE_PATH = `/oauth/authorize?${new URLSearchParams({
  response_type: 'code',
  client_id: STUB_CLIENT.client_id,
  redirect_uri: STUB_CLIENT.redirect_uri,
  scope: 'openid profile',
  state: STATE,
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
  resource: STUB_RESOURCE,
}).toString()}`;

/** Fails when the page scrolls sideways. */
async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

/** Lists visible buttons, links and checkbox labels smaller than 44 × 44 CSS px. */
async function smallTapTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, a, label:has(input[type="checkbox"])')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.bottom > 0 && box.width > 0 && getComputedStyle(element).visibility !== 'hidden';
      })
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width < 44 || box.height < 44;
      })
      .map(
        (element) =>
          `${element.tagName.toLowerCase()} "${element.textContent?.trim()}" ${Math.round(element.getBoundingClientRect().width)}×${Math.round(element.getBoundingClientRect().height)}`,
      ),
  );
}

async function expectUsableLayout(page: Page): Promise<void> {
  await expectNoHorizontalScroll(page);
  expect(await smallTapTargets(page)).toEqual([]);
}

describe.skipIf(!CHROMIUM_AVAILABLE)('consent flow and invitations in Chromium (built app, stub backend)', () => {
  let outDir: string;
  let backend: StubBackend;

  beforeAll(async () => {
    outDir = await sharedAppBuild();
    backend = await startStubBackend(outDir);
    await mkdir(SCREENSHOTS, { recursive: true });
  });

  afterAll(async () => {
    await backend?.close();
  });

  it.each([375, 1280])(
    'signs in, approves with remember, then lists and withdraws the consent at %i px',
    async (width) => {
      backend.reset();
      const narrow = width < 600;
      const browser = await launchChromium({ width, height: narrow ? 740 : 800, mobile: narrow });
      const { context, page, pageErrors } = browser;
      try {
        // The client's redirect URI is answered in the browser: no request leaves the machine.
        await context.route('https://tool.example/**', (route) =>
          route.fulfill({
            status: 200,
            contentType: 'text/html',
            body: '<!doctype html><title>Example MCP Tool</title><p>Callback received.</p>',
          }),
        );

        // Signed out: the consent page sends the person to sign in, and back.
        await page.goto(`${backend.url}${AUTHORIZE_PATH}`);
        await page.waitForURL((url) => url.pathname === '/login');
        expect(new URL(page.url()).searchParams.get('next')).toBe(AUTHORIZE_PATH);
        await expectUsableLayout(page);

        await page.getByLabel('Email').fill(STUB_USER.email);
        await page.getByLabel('Password').fill('not the passphrase');
        await page.getByRole('button', { name: 'Sign in' }).click();
        expect(await page.getByRole('alert').textContent()).toContain('The email or password is incorrect.');
        await page.getByLabel('Password').fill(STUB_USER.password);
        await page.getByRole('button', { name: 'Sign in' }).click();

        // The consent page.
        await page.getByRole('heading', { level: 1, name: 'Allow Example MCP Tool to use your account?' }).waitFor();
        await page.getByText(`Signed in as ${STUB_USER.email}`).waitFor();
        expect(await page.getByText(STUB_RESOURCE, { exact: true }).isVisible()).toBe(true);
        expect(await page.getByText('Confirm who you are (your account identifier)').isVisible()).toBe(true);
        expect(await page.getByText('See your profile: your display name').isVisible()).toBe(true);
        const remember = page.getByLabel('Remember this decision');
        expect(await remember.isChecked()).toBe(false);
        const storage = await page.evaluate(() => ({
          session: sessionStorage.getItem('wildo.accessToken'),
          local: localStorage.length,
        }));
        expect(storage.session).toMatch(/^[0-9a-f]{24}$/);
        expect(storage.local).toBe(0);
        expect(page.url()).not.toContain(storage.session!);
        await expectUsableLayout(page);
        await page.screenshot({ path: join(SCREENSHOTS, `consent-page-${width}.png`), fullPage: true });

        await remember.check();
        await page.getByRole('button', { name: 'Approve' }).dblclick();
        await page.waitForURL((url) => url.hostname === 'tool.example');
        const callback = new URL(page.url());
        expect(`${callback.origin}${callback.pathname}`).toBe(STUB_CLIENT.redirect_uri);
        expect(callback.searchParams.get('state')).toBe(STATE);
        expect(callback.searchParams.get('code')).toMatch(/^[0-9a-f]{24}$/);
        expect(backend.decisions).toEqual([{ consent_token: expect.any(String), decision: 'approve', remember: true }]);

        // Remembered: the same request now skips the question.
        await page.goto(`${backend.url}${AUTHORIZE_PATH}`);
        await page.waitForURL((url) => url.hostname === 'tool.example');
        expect(new URL(page.url()).searchParams.get('code')).not.toBe(callback.searchParams.get('code'));
        expect(backend.decisions).toHaveLength(1);

        // The remembered consent is listed and can be withdrawn.
        await page.goto(`${backend.url}/account/consents`);
        const item = page
          .getByRole('listitem')
          .filter({ has: page.getByRole('heading', { level: 2, name: 'Example MCP Tool' }) });
        await item.waitFor();
        expect(await item.getByText(STUB_RESOURCE, { exact: true }).isVisible()).toBe(true);
        expect(await item.getByText('See your profile: your display name').isVisible()).toBe(true);
        await expectUsableLayout(page);
        await page.screenshot({ path: join(SCREENSHOTS, `consent-list-${width}.png`), fullPage: true });

        await item.getByRole('button', { name: 'Withdraw consent for Example MCP Tool' }).click();
        await page.getByText('No remembered consents.').waitFor();
        await page.getByText('Consent for Example MCP Tool withdrawn.').waitFor();
        expect(backend.grants.size).toBe(0);
        await expectUsableLayout(page);

        // Withdrawn: the next request asks again.
        await page.goto(`${backend.url}${AUTHORIZE_PATH}`);
        await page.getByRole('button', { name: 'Approve' }).waitFor();

        // Invitations, reached from the main navigation: accept one (the session's token is replaced), decline the other.
        await page.goto(`${backend.url}/account/consents`);
        // On a phone the main links fold behind the Menu button.
        if (narrow) await page.getByRole('button', { name: 'Menu' }).click();
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Invitations' }).click();
        await page.waitForURL((url) => url.pathname === '/account/invitations');
        const engines = page
          .getByRole('listitem')
          .filter({ has: page.getByRole('heading', { level: 2, name: 'Analytical Engines' }) });
        await engines.waitFor();
        expect(await engines.getByText('Grace').isVisible()).toBe(true);
        await expectUsableLayout(page);
        await page.screenshot({ path: join(SCREENSHOTS, `invitations-${width}.png`), fullPage: true });
        const tokenBefore = await page.evaluate(() => sessionStorage.getItem('wildo.accessToken'));
        await engines.getByRole('button', { name: 'Accept invitation to Analytical Engines' }).click();
        await page.getByRole('status').filter({ hasText: 'You joined Analytical Engines as Member.' }).waitFor();
        expect(await page.evaluate(() => sessionStorage.getItem('wildo.accessToken'))).not.toBe(tokenBefore);
        await page.getByRole('button', { name: 'Decline invitation to Difference Ltd' }).click();
        await page.getByText('No open invitations.').waitFor();
        await page.getByRole('status').filter({ hasText: 'You declined the invitation to Difference Ltd.' }).waitFor();
        expect([...backend.invitations.values()].map((i) => i.status)).toEqual(['accepted', 'declined']);
        await expectUsableLayout(page);

        expect(pageErrors).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});
