import { randomUUID } from 'node:crypto';
import { CORE_APP_ROLES } from '@wildo/shared-lib';
import { SAAS_SERVICE_TYPES, type TokenBudgetService } from '@wildo/backend-api';
import { startStubModels, type StubModels } from '@wildo/backend-api/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPageAtWidths } from '../frontend/browser/accessibility.js';
import { sharedAppBuild } from '../frontend/browser/build-app.js';
import { CHROMIUM_AVAILABLE, launchChromium, type HeadlessChromium } from '../frontend/browser/headless-chromium.js';
import { startRealBackend, type RealBackend } from './oauth/real-backend.js';

// The host UI in Debian's headless Chromium against the real reference backend (in-memory PGlite): one build,
// one backend, one browser for the whole file. Each person has a tab of their own (the session lives in the
// tab's sessionStorage). Every page is checked with axe-core and photographed at 375 and 1280 px.

const PASSWORD = 'a long passphrase';

/** What page functions use of the browser (this program is type-checked without the DOM library). */
interface BrowserGlobals {
  sessionStorage: { getItem(key: string): string | null };
  navigator: { clipboard: { readText(): Promise<string> } };
}

interface UsersService {
  changeApplicationRole(email: string, role: string, change: 'grant' | 'revoke'): Promise<{ changed: boolean }>;
}

describe.skipIf(!CHROMIUM_AVAILABLE)('host UI in Chromium (built app, real backend)', () => {
  let outDir: string;
  let server: RealBackend;
  let models: StubModels;
  let chromium: HeadlessChromium;
  let base: string;
  const problems: string[] = [];
  const run = randomUUID().slice(0, 8);
  const emailOf = (name: string) => `${name}-${run}@example.test`;

  beforeAll(async () => {
    // Chromium starts while the backend does (it needs nothing from it until the first page).
    const launching = launchChromium({ width: 1280, height: 800 });
    try {
      outDir = await sharedAppBuild();
      // The assistant talks to the local stand-in models (echo, or a tool call for "call <tool> {json}").
      models = await startStubModels();
      server = await startRealBackend({ frontendDist: outDir, env: models.env });
      base = server.issuer;
    } finally {
      chromium = await launching;
    }
    await chromium.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  });

  afterAll(async () => {
    await chromium?.close();
    await server?.close();
    await models?.close();
  });

  /** Checks the page (axe, both widths, no sideways scroll) and records what is wrong; asserted at the end. */
  const check = async (page: Page, name: string) => problems.push(...(await checkPageAtWidths(page, name)));

  /** A new tab (it opens in front) signed up through the sign-up page. */
  async function signUpInNewTab(name: string): Promise<Page> {
    const page = await chromium.context.newPage();
    page.on('pageerror', (error) => chromium.pageErrors.push(error.message));
    await page.goto(`${base}/signup`);
    await page.getByLabel('Email').fill(emailOf(name));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await openSignupLink(page, emailOf(name));
    await page.waitForURL((url) => url.pathname === '/organizations');
    return page;
  }

  /**
   * After a sign-up on `page`: from the "check your inbox" page to the development outbox, then the link of the
   * mail to `email`, opened (which creates the account and signs in).
   */
  async function openSignupLink(page: Page, email: string, checkPages = false): Promise<void> {
    await page.getByRole('heading', { level: 1, name: 'Check your inbox' }).waitFor();
    if (checkPages) await check(page, 'check-your-inbox');
    await page.getByRole('link', { name: 'Open the outbox' }).click();
    await page.waitForURL((url) => url.pathname === '/dev/outbox');
    await page.getByLabel('Show mails to (empty: everyone)').fill(email);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText(`To ${email},`).first().waitFor();
    if (checkPages) await check(page, 'outbox');
    await page
      .getByRole('link', { name: /\/verify-email#token=/ })
      .first()
      .click();
  }

  /**
   * Makes `page` the visible tab before acting in it. Only the visible tab of the window renders frames: in a
   * background tab every click waits about 2 s for the element to be "stable" (animation frames never come)
   * and every screenshot about 1.7 s.
   */
  const showTab = (page: Page) => page.bringToFront();

  /** Signs the tab's person in again (a role change ended their earlier session), landing on `next`. */
  async function signInAgain(page: Page, name: string, next: string): Promise<void> {
    await page.goto(`${base}/login?${new URLSearchParams({ next }).toString()}`);
    await page.getByLabel('Email').fill(emailOf(name));
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === next);
  }

  /** The focused element's text and whether its focus outline shows. */
  const focusedElement = (page: Page) =>
    page.evaluate(() => {
      interface Focused {
        textContent: string | null;
      }
      const g = globalThis as unknown as {
        document: { activeElement: Focused | null };
        getComputedStyle(element: Focused): { outlineStyle: string; outlineWidth: string };
      };
      const element = g.document.activeElement;
      if (!element) return null;
      const style = g.getComputedStyle(element);
      return {
        text: element.textContent?.trim() ?? '',
        outlineVisible: style.outlineStyle !== 'none' && style.outlineWidth !== '0px',
      };
    });

  /**
   * Starts (or restarts) recording the page's layout shifts, those right after a key press included: the
   * cumulative-layout-shift score leaves those out, but a streamed reply follows Enter at once.
   */
  const recordLayoutShifts = (page: Page) =>
    page.evaluate(() => {
      const g = globalThis as unknown as { layoutShifts?: number[] };
      const observing = g.layoutShifts !== undefined;
      g.layoutShifts = [];
      if (observing) return;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) g.layoutShifts?.push((entry as unknown as { value: number }).value);
        // Node's typings (this program has no DOM library) do not list the browser's entry types.
      }).observe({ type: 'layout-shift' as never });
    });

  /** The sum of the layout shifts recorded so far, read after two frames (so the last rendering's are in). */
  const recordedLayoutShift = (page: Page) =>
    page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const g = globalThis as unknown as {
            layoutShifts: number[];
            requestAnimationFrame(callback: () => void): void;
          };
          g.requestAnimationFrame(() =>
            g.requestAnimationFrame(() => resolve(g.layoutShifts.reduce((sum, value) => sum + value, 0))),
          );
        }),
    );

  /** A fetch from the page as the tab's signed-in person (to show what the server refuses beside the UI). */
  const apiFromPage = (
    page: Page,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) =>
    page.evaluate(
      async ({ method, path, body, headers }) => {
        const token = (globalThis as unknown as BrowserGlobals).sessionStorage.getItem('wildo.accessToken');
        const response = await fetch(path, {
          method,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
          body: body === undefined ? null : JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as { error?: { reason?: string } } };
      },
      { method, path, body, headers },
    );

  it('takes a new person from sign-up to organizations, todos, documents, members, credentials, usage and budgets', async () => {
    const ada = chromium.page;

    // Sign-up: the server's field problem shows beside the field; then it succeeds and leads to organizations.
    await ada.goto(`${base}/assistant`);
    await ada.waitForURL((url) => url.pathname === '/login');
    // On a fresh load, the first Tab reaches the skip link, visibly.
    await ada.reload();
    await ada.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await ada.keyboard.press('Tab');
    expect(await focusedElement(ada)).toMatchObject({ text: 'Skip to content', outlineVisible: true });
    await check(ada, 'login');
    await ada.getByRole('link', { name: 'Create an account' }).click();
    await ada.waitForURL((url) => url.pathname === '/signup');
    await ada.getByLabel('Email').fill(emailOf('ada'));
    await ada.getByLabel('Password', { exact: true }).fill('short');
    await ada.getByRole('button', { name: 'Create account' }).click();
    const passwordField = ada.getByLabel('Password', { exact: true });
    await expect.poll(() => passwordField.getAttribute('aria-invalid')).toBe('true');
    expect(await ada.getByRole('alert').textContent()).toContain('Your account was not created.');
    await check(ada, 'signup');
    await passwordField.fill(PASSWORD);
    await ada.getByRole('button', { name: 'Create account' }).click();
    // The account exists once the mailed link is opened; then the sign-up goes on where it was asked to.
    await openSignupLink(ada, emailOf('ada'), true);
    await ada.waitForURL((url) => url.pathname === '/assistant');

    // No organization yet: the assistant page offers the way forward.
    await ada.getByText('you are not a member of any organization yet').waitFor();
    await check(ada, 'assistant-no-organization');
    await ada.getByRole('link', { name: 'Create an organization' }).click();
    await ada.waitForURL((url) => url.pathname === '/organizations');
    await check(ada, 'organizations');
    await ada.getByRole('button', { name: 'Create organization' }).click();
    await ada.getByText('Give the organization a name.').waitFor();
    await ada.getByLabel('Organization name').fill('Analytical Engines');
    await ada.getByLabel('Organization name').press('Enter');
    await ada.getByRole('heading', { level: 1, name: 'Analytical Engines' }).waitFor();
    const orgId = decodeURIComponent(new URL(ada.url()).pathname.split('/')[2] ?? '');
    expect(orgId).toMatch(/^[0-9a-f-]{36}$/);
    const orgBase = `${base}/organizations/${orgId}`;

    // Todos: a server refusal beside its field, create, paginate, filter, edit, delete.
    await ada.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Todos' }).click();
    await ada.getByRole('heading', { level: 1, name: 'Todos' }).waitFor();
    const newTodo = ada.getByRole('form', { name: 'New todo' });
    await newTodo.getByRole('button', { name: 'Create todo' }).click();
    await expect.poll(() => newTodo.getByLabel('Title').getAttribute('aria-invalid')).toBe('true');
    expect(await newTodo.getByText('Fill in this field.').count()).toBe(1);
    await newTodo.getByLabel('Title').fill('Write the first program');
    await newTodo.getByLabel('Priority').selectOption('5');
    // Keyboard only from here: Tab reaches the submit button, which shows its focus; Enter submits.
    await newTodo.getByLabel('Priority').focus();
    await ada.keyboard.press('Tab');
    expect(await focusedElement(ada)).toMatchObject({ text: 'Create todo', outlineVisible: true });
    await ada.keyboard.press('Enter');
    await ada.getByRole('status').filter({ hasText: 'Todo “Write the first program” created.' }).waitFor();
    for (let i = 1; i <= 5; i += 1) {
      const created = await apiFromPage(ada, 'POST', `/api/v1/organizations/${orgId}/todos`, { title: `Note ${i}` });
      expect(created.status).toBe(201);
    }
    await ada.reload();
    const todoList = ada.getByRole('list', { name: 'Todos' });
    await todoList.waitFor();
    expect(await todoList.getByRole('listitem').count()).toBe(5);
    const pages = ada.getByRole('navigation', { name: 'Pages' });
    expect(await pages.getByRole('button', { name: 'Previous page' }).isDisabled()).toBe(true);
    await pages.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => todoList.getByRole('listitem').count()).toBe(1);
    expect(await pages.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await pages.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => todoList.getByRole('listitem').count()).toBe(5);
    await check(ada, 'todos');

    const filters = ada.getByRole('form', { name: 'Filter todos' });
    await filters.getByLabel('Priority').selectOption('5');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => todoList.getByRole('listitem').count()).toBe(1);
    await ada.getByRole('button', { name: 'Edit Write the first program' }).click();
    const editTodo = ada.getByRole('form', { name: 'Edit todo' });
    await editTodo.getByLabel('Title').fill('');
    await editTodo.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => editTodo.getByLabel('Title').getAttribute('aria-invalid')).toBe('true');
    await editTodo.getByLabel('Title').fill('Write the first program for the engine');
    await editTodo.getByLabel('Status').selectOption('done');
    await editTodo.getByRole('button', { name: 'Save changes' }).click();
    await ada.getByRole('status').filter({ hasText: 'saved' }).waitFor();
    await filters.getByLabel('Status').selectOption('done');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await todoList.getByText('Done · priority 5').waitFor();
    await ada.getByRole('button', { name: 'Delete Write the first program for the engine' }).click();
    await ada.getByRole('button', { name: 'Yes, delete Write the first program for the engine' }).click();
    await ada.getByText('No todos here.').waitFor();

    // Knowledge documents: create, edit, delete (no filter is declared, so none is offered).
    await ada.goto(`${orgBase}/documents`);
    await ada.getByRole('heading', { level: 1, name: 'Knowledge documents' }).waitFor();
    expect(await ada.getByRole('form', { name: /^Filter/ }).count()).toBe(0);
    const newDocument = ada.getByRole('form', { name: 'New document' });
    await newDocument.getByLabel('Title').fill('Notes on the engine');
    await newDocument.getByLabel('Body').fill('The engine weaves algebraic patterns.');
    await newDocument.getByRole('button', { name: 'Create document' }).click();
    await ada.getByRole('heading', { level: 2, name: 'Notes on the engine' }).waitFor();
    await ada.getByRole('button', { name: 'Edit Notes on the engine' }).click();
    await ada.getByRole('form', { name: 'Edit document' }).getByLabel('Title').fill('Notes on the Analytical Engine');
    await ada.getByRole('button', { name: 'Save changes' }).click();
    await ada.getByRole('heading', { level: 2, name: 'Notes on the Analytical Engine' }).waitFor();
    await check(ada, 'documents');
    await ada.getByRole('button', { name: 'Delete Notes on the Analytical Engine' }).click();
    await ada.getByRole('button', { name: 'Yes, delete Notes on the Analytical Engine' }).click();
    await ada.getByText('No knowledge documents here.').waitFor();

    // Members and invitations: a manager, a member, one declined, one pending.
    await ada.goto(orgBase);
    const invite = async (name: string, role: string) => {
      await ada.getByLabel('Email to invite').fill(emailOf(name));
      await ada.getByLabel('Role', { exact: true }).selectOption(role);
      await ada.getByRole('button', { name: 'Send invitation' }).click();
      await ada
        .getByRole('status')
        .filter({ hasText: `Invitation sent to ${emailOf(name)}.` })
        .waitFor();
    };
    await invite('grace', 'ORG_MANAGER');
    await invite('bob', 'ORG_MEMBER');
    await invite('carol', 'ORG_MEMBER');
    await invite('dave', 'ORG_MEMBER');
    const answer = async (tab: Page, choice: 'Accept' | 'Decline') => {
      await tab.goto(`${base}/account/invitations`);
      await tab.getByRole('button', { name: `${choice} invitation to Analytical Engines` }).click();
      await tab
        .getByRole('status')
        .filter({ hasText: choice === 'Accept' ? 'You joined' : 'You declined' })
        .waitFor();
    };
    const grace = await signUpInNewTab('grace');
    await answer(grace, 'Accept');
    const bob = await signUpInNewTab('bob');
    await answer(bob, 'Accept');
    const carol = await signUpInNewTab('carol');
    await answer(carol, 'Decline');
    await showTab(ada);
    await ada.reload();
    await ada.getByRole('heading', { level: 3, name: 'Accepted (2)' }).waitFor();
    await ada.getByRole('heading', { level: 3, name: 'Declined (1)' }).waitFor();
    await ada.getByRole('heading', { level: 3, name: 'Pending (1)' }).waitFor();
    await ada.getByLabel(`Role of ${emailOf('bob')}`).selectOption('ORG_MANAGER');
    await ada.getByRole('button', { name: 'Save role' }).nth(1).click();
    await ada
      .getByRole('status')
      .filter({ hasText: `${emailOf('bob')} is now Manager.` })
      .waitFor();
    await ada.getByLabel(`Role of ${emailOf('bob')}`).selectOption('ORG_MEMBER');
    await ada.getByRole('button', { name: 'Save role' }).nth(1).click();
    await ada
      .getByRole('status')
      .filter({ hasText: `${emailOf('bob')} is now Member.` })
      .waitFor();
    await ada.getByRole('button', { name: `Revoke invitation to ${emailOf('dave')}` }).click();
    await ada.getByRole('heading', { level: 3, name: 'Revoked (1)' }).waitFor();
    await check(ada, 'members');

    // A manager changes roles within their own: Bob's role offers Manager and Member only, Ada's (an admin)
    // none. Admin picked anyway (a tampered page) is refused by the server and the page says so; then Member to
    // Manager and back works.
    await showTab(grace);
    await grace.goto(orgBase);
    const bobRole = grace.getByLabel(`Role of ${emailOf('bob')}`);
    await expect.poll(() => bobRole.locator('option').allTextContents()).toEqual(['Manager', 'Member']);
    expect(await grace.getByLabel(`Role of ${emailOf('ada')}`).count()).toBe(0);
    const saveBobRole = grace.getByRole('listitem').filter({ has: bobRole }).getByRole('button', { name: 'Save role' });
    await bobRole.evaluate((select) => {
      const element = select as unknown as {
        ownerDocument: { createElement(tag: string): { value: string; textContent: string } };
        append(child: unknown): void;
      };
      const option = element.ownerDocument.createElement('option');
      option.value = 'ORG_ADMIN';
      option.textContent = 'Admin';
      element.append(option);
    });
    await bobRole.selectOption('ORG_ADMIN');
    await saveBobRole.click();
    await grace
      .getByRole('alert')
      .filter({ hasText: `The role of ${emailOf('bob')} was not changed.` })
      .waitFor();
    await check(grace, 'members-manager-refused');
    for (const [role, label] of [
      ['ORG_MANAGER', 'Manager'],
      ['ORG_MEMBER', 'Member'],
    ] as const) {
      await bobRole.selectOption(role);
      await saveBobRole.click();
      await grace
        .getByRole('status')
        .filter({ hasText: `${emailOf('bob')} is now ${label}.` })
        .waitFor();
    }
    await showTab(ada);

    // API keys: created with the secret shown once, copied, regenerated, rotated with step-up, deleted.
    await ada.goto(`${orgBase}/api-keys`);
    await ada.getByRole('heading', { level: 1, name: /API keys/ }).waitFor();
    const createKey = ada.getByRole('form', { name: 'Create API key' });
    // The roles arrive with the page's data: polled, since evaluateAll does not wait for them.
    await expect
      .poll(() =>
        createKey.getByRole('checkbox').evaluateAll((boxes) => boxes.map((box) => box.parentElement?.textContent)),
      )
      .toEqual(['Admin', 'Manager', 'Member']);
    await createKey.getByLabel('Name').fill('CI');
    await createKey.getByLabel('Admin').check();
    await createKey.getByLabel('Expires on (optional, UTC end of day)').fill('2099-12-31');
    await createKey.getByRole('button', { name: 'Create API key' }).click();
    const secret = ada.getByRole('region', { name: 'New API key' });
    await secret.getByText('It is shown only once').waitFor();
    const plainKey = (await secret.getByTestId('one-time-secret').textContent()) ?? '';
    expect(plainKey).toMatch(/^sk_org_/);
    await secret.getByRole('button', { name: 'Copy new API key' }).click();
    await secret.getByText('Copied to the clipboard.').waitFor();
    expect(await ada.evaluate(() => (globalThis as unknown as BrowserGlobals).navigator.clipboard.readText())).toBe(
      plainKey,
    );
    await check(ada, 'api-keys-secret');
    await secret.getByRole('button', { name: 'I have stored it' }).click();
    expect(await ada.getByTestId('one-time-secret').count()).toBe(0);
    // Dates show in the person's locale and time zone: the expiry's year is there whatever those are.
    await ada
      .getByText(/2099|2100/)
      .first()
      .waitFor();

    await ada.getByRole('button', { name: 'Regenerate CI' }).first().click();
    const regenerated = (await ada.getByTestId('one-time-secret').textContent()) ?? '';
    expect(regenerated).toMatch(/^sk_org_/);
    expect(regenerated).not.toBe(plainKey);
    await ada.getByRole('button', { name: 'I have stored it' }).click();

    // Rotation without a step-up proof is refused by the server; with a wrong password the field says so; then it works.
    const keyId = await ada.evaluate(async (path) => {
      const response = await fetch(path, {
        headers: {
          authorization: `Bearer ${(globalThis as unknown as BrowserGlobals).sessionStorage.getItem('wildo.accessToken')}`,
        },
      });
      return ((await response.json()) as { data: Array<{ _id: string }> }).data[0]?._id ?? '';
    }, `/api/v1/organizations/${orgId}/api-keys`);
    const noProof = await apiFromPage(ada, 'PUT', `/api/v1/organizations/${orgId}/api-keys/${keyId}/rotate`, {
      oldKeyInvalidationDate: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(noProof.status).toBe(403);
    expect(noProof.body.error?.reason).toBe('step_up_required');
    await ada.getByRole('button', { name: 'Rotate CI' }).first().click();
    const rotate = ada.getByRole('form', { name: 'Rotate CI' });
    expect(await rotate.getByLabel('Old secret stops working at').inputValue()).toMatch(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/,
    );
    await rotate.getByLabel('Your password').fill('not my password');
    await rotate.getByRole('button', { name: 'Confirm rotation' }).click();
    await expect.poll(() => rotate.getByLabel('Your password').getAttribute('aria-invalid')).toBe('true');
    expect(
      await ada.evaluate(() => (globalThis as unknown as BrowserGlobals).sessionStorage.getItem('wildo.accessToken')),
    ).not.toBeNull();
    await rotate.getByLabel('Your password').fill(PASSWORD);
    await rotate.getByRole('button', { name: 'Confirm rotation' }).click();
    await ada.getByRole('status').filter({ hasText: 'CI rotated' }).waitFor();
    expect(await ada.getByTestId('one-time-secret').textContent()).toMatch(/^sk_org_/);
    await ada.getByRole('button', { name: 'I have stored it' }).click();
    await ada.getByText('Stops working').first().waitFor();
    await check(ada, 'api-keys');
    const keyCount = await ada.getByRole('list', { name: 'API keys' }).getByRole('listitem').count();
    await ada.getByRole('button', { name: 'Delete CI' }).first().click();
    await ada.getByRole('button', { name: 'Yes, delete CI' }).click();
    await expect
      .poll(() => ada.getByRole('list', { name: 'API keys' }).getByRole('listitem').count())
      .toBe(keyCount - 1);

    // A manager is offered roles up to Manager only, and the server refuses Admin when asked anyway.
    await showTab(grace);
    await grace.goto(`${orgBase}/api-keys`);
    const graceCreate = grace.getByRole('form', { name: 'Create API key' });
    await graceCreate.waitFor();
    await expect
      .poll(() =>
        graceCreate.getByRole('checkbox').evaluateAll((boxes) => boxes.map((box) => box.parentElement?.textContent)),
      )
      .toEqual(['Manager', 'Member']);
    const forced = await apiFromPage(grace, 'POST', `/api/v1/organizations/${orgId}/api-keys`, {
      name: 'Escalate',
      roles: ['ORG_ADMIN'],
    });
    expect(forced.status).toBe(403);
    expect(forced.body.error?.reason).toBe('role_refused');
    // Ada's CI keys (the rotated one and its retiring predecessor) hold Admin: the manager is offered no action
    // on them, and the server refuses to regenerate or delete one.
    const adminKeys = grace.getByRole('listitem').filter({ has: grace.getByRole('heading', { level: 2, name: 'CI' }) });
    await adminKeys.first().getByText('It holds a role above yours').waitFor();
    expect(await adminKeys.getByRole('button').count()).toBe(0);
    const keysSeen = await apiFromPage(grace, 'GET', `/api/v1/organizations/${orgId}/api-keys`);
    const adminKeyId =
      (keysSeen.body as unknown as { data: Array<{ _id: string; name: string }> }).data.find((key) => key.name === 'CI')
        ?._id ?? '';
    const regenerateAbove = await apiFromPage(
      grace,
      'POST',
      `/api/v1/organizations/${orgId}/api-keys/${adminKeyId}/regenerate`,
      {},
    );
    expect(regenerateAbove.status).toBe(403);
    expect(regenerateAbove.body.error?.reason).toBe('role_refused');
    const deleteAbove = await apiFromPage(grace, 'DELETE', `/api/v1/organizations/${orgId}/api-keys/${adminKeyId}`);
    expect(deleteAbove.status).toBe(403);
    expect(deleteAbove.body.error?.reason).toBe('role_refused');
    await graceCreate.getByLabel('Name').fill('Grace CI');
    await graceCreate.getByRole('button', { name: 'Create API key' }).click();
    await grace.getByRole('region', { name: 'New API key' }).waitFor();
    await grace.getByRole('button', { name: 'I have stored it' }).click();
    // Within the ceiling, the manager regenerates their own key.
    await grace.getByRole('button', { name: 'Regenerate Grace CI' }).click();
    await grace.getByRole('status').filter({ hasText: 'Grace CI regenerated.' }).waitFor();
    expect(await grace.getByTestId('one-time-secret').textContent()).toMatch(/^sk_org_/);
    await check(grace, 'api-keys-manager');

    // A member opening the keys page is refused by the server, and the page says so. (The role changes above
    // ended Bob's session: he signs in again.)
    await showTab(bob);
    await bob.goto(`${orgBase}/api-keys`);
    await bob.waitForURL((url) => url.pathname === '/login');
    await signInAgain(bob, 'bob', `/organizations/${orgId}/api-keys`);
    await bob.getByRole('alert').filter({ hasText: 'You cannot see the API keys here.' }).waitFor();
    expect(await bob.getByRole('form', { name: 'Create API key' }).count()).toBe(0);
    await check(bob, 'api-keys-member-refused');

    // OAuth clients: created with the secret once, rotated with step-up, regenerated.
    await showTab(ada);
    await ada.goto(`${orgBase}/oauth-clients`);
    const createClient = ada.getByRole('form', { name: 'Create OAuth client' });
    await createClient.getByLabel('Name').fill('Reporting');
    await createClient.getByRole('button', { name: 'Create OAuth client' }).click();
    await ada.getByRole('region', { name: 'New client secret' }).waitFor();
    const firstClientSecret = (await ada.getByTestId('one-time-secret').textContent()) ?? '';
    await check(ada, 'oauth-clients');
    await ada.getByRole('button', { name: 'I have stored it' }).click();
    await ada.getByRole('button', { name: 'Rotate Reporting' }).click();
    await ada.getByRole('form', { name: 'Rotate Reporting' }).getByLabel('Your password').fill(PASSWORD);
    await ada.getByRole('button', { name: 'Confirm rotation' }).click();
    await ada.getByRole('status').filter({ hasText: 'Reporting rotated' }).waitFor();
    await ada.getByRole('button', { name: 'I have stored it' }).click();
    await ada.getByRole('button', { name: 'Regenerate Reporting' }).click();
    await ada.getByRole('status').filter({ hasText: 'Reporting regenerated.' }).waitFor();
    const regeneratedClientSecret = (await ada.getByTestId('one-time-secret').textContent()) ?? '';
    expect(regeneratedClientSecret.length).toBeGreaterThan(20);
    expect(regeneratedClientSecret).not.toBe(firstClientSecret);
    await ada.getByRole('button', { name: 'I have stored it' }).click();

    // A manager may not manage the organization's OAuth clients: the page says so and the server refuses to
    // regenerate or delete Ada's client; then Ada deletes it.
    await showTab(grace);
    await grace.goto(`${orgBase}/oauth-clients`);
    await grace.getByRole('alert').filter({ hasText: 'You cannot see the OAuth clients here.' }).waitFor();
    expect(await grace.getByRole('form', { name: 'Create OAuth client' }).count()).toBe(0);
    // (The same refusal state as Bob's on the keys page, checked there.)
    const clients = await apiFromPage(ada, 'GET', `/api/v1/organizations/${orgId}/oauth-clients`);
    const reportingId = (clients.body as unknown as { data: Array<{ _id: string }> }).data[0]?._id ?? '';
    const clientPath = `/api/v1/organizations/${orgId}/oauth-clients/${reportingId}`;
    const regenerateByManager = await apiFromPage(grace, 'POST', `${clientPath}/regenerate`, {});
    expect(regenerateByManager.status).toBe(403);
    expect(regenerateByManager.body.error?.reason).toBe('role_refused');
    const deleteByManager = await apiFromPage(grace, 'DELETE', clientPath);
    expect(deleteByManager.status).toBe(403);
    expect(deleteByManager.body.error?.reason).toBe('role_refused');
    await showTab(ada);
    await ada.getByRole('button', { name: 'Delete Reporting' }).click();
    await ada.getByRole('button', { name: 'Yes, delete Reporting' }).click();
    await ada.getByRole('status').filter({ hasText: 'OAuth client “Reporting” deleted.' }).waitFor();
    await ada.getByText('No OAuth clients yet.').waitFor();

    // Usage: this month's consumption against the allowance, with the daily chart.
    const budgets = server.backend.container.get<TokenBudgetService>(SAAS_SERVICE_TYPES.TokenBudgetService);
    const now = new Date();
    const firstOfMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1, 9));
    await budgets.recordConsumption({ kind: 'organization', organizationId: orgId }, 1_500, firstOfMonth);
    await budgets.recordConsumption({ kind: 'organization', organizationId: orgId }, 700, now);
    await showTab(bob);
    await bob.goto(`${orgBase}/usage`);
    await bob.getByText('2,200').waitFor();
    await bob.getByText('no monthly limit applies', { exact: false }).waitFor();
    expect(await bob.locator('svg[role="img"] rect').count()).toBeGreaterThanOrEqual(28);
    await check(bob, 'usage');

    // Plans and budgets: Ada becomes an application admin (as an operator grants it) and signs in again.
    const users = server.backend.container.get<UsersService>(SAAS_SERVICE_TYPES.UsersService);
    expect((await users.changeApplicationRole(emailOf('ada'), CORE_APP_ROLES.APP_ADMIN, 'grant')).changed).toBe(true);
    await showTab(ada);
    await ada.goto(`${base}/login?next=/admin/budgets`);
    await ada.getByLabel('Email').fill(emailOf('ada'));
    await ada.getByLabel('Password').fill(PASSWORD);
    await ada.getByRole('button', { name: 'Sign in' }).click();
    await ada.getByRole('heading', { level: 1, name: 'Plans and budgets' }).waitFor();
    await ada.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Administration' }).waitFor();
    // The organization is picked from the list (the filter narrows it by name).
    const organizationPicker = ada.getByLabel('Organization', { exact: true });
    await expect.poll(() => organizationPicker.locator('option').count()).toBeGreaterThanOrEqual(1);
    await ada.getByLabel('Filter organizations by name').fill('analytical');
    await expect
      .poll(() => organizationPicker.locator('option').allTextContents())
      .toEqual([`Analytical Engines (${orgId.slice(0, 8)})`]);
    await organizationPicker.selectOption(orgId);
    await ada.getByRole('button', { name: 'Show budget' }).click();
    await ada.getByRole('heading', { level: 2, name: 'Analytical Engines' }).waitFor();
    await ada.getByText('no monthly limit applies', { exact: false }).waitFor();
    await ada.getByRole('button', { name: 'Assign plan' }).click();
    await ada.getByText('of 100,000', { exact: false }).waitFor();
    await ada.getByRole('button', { name: 'Set override' }).click();
    await expect.poll(() => ada.getByLabel('Monthly tokens').getAttribute('aria-invalid')).toBe('true');
    await ada.getByLabel('Monthly tokens').fill('250000');
    await ada.getByRole('button', { name: 'Set override' }).click();
    await ada.getByText('of 250,000', { exact: false }).waitFor();
    await check(ada, 'admin-budgets');
    await ada.getByRole('button', { name: 'Clear override' }).click();
    await ada.getByText('of 100,000', { exact: false }).waitFor();
    await showTab(bob);
    await bob.reload();
    await bob.getByText('of 100,000', { exact: false }).waitFor();

    // Someone who is not an application admin is refused the list of organizations, so nothing to pick.
    await bob.goto(`${base}/admin/budgets`);
    await bob.getByRole('alert').filter({ hasText: 'The organizations could not be loaded.' }).waitFor();
    expect(await bob.getByLabel('Organization', { exact: true }).count()).toBe(0);
    await check(bob, 'admin-budgets-refused');

    // Application-scoped credentials.
    await showTab(ada);
    await ada.goto(`${base}/admin/api-keys`);
    const appKey = ada.getByRole('form', { name: 'Create API key' });
    await expect
      .poll(() =>
        appKey.getByRole('checkbox').evaluateAll((boxes) => boxes.map((box) => box.parentElement?.textContent)),
      )
      .toEqual(['Application admin', 'Application user']);
    await appKey.getByLabel('Name').fill('Billing sync');
    await appKey.getByRole('button', { name: 'Create API key' }).click();
    expect(await ada.getByTestId('one-time-secret').textContent()).toMatch(/^sk_app_/);
    await ada.getByRole('button', { name: 'I have stored it' }).click();
    await check(ada, 'admin-api-keys');
    await ada.goto(`${base}/admin/oauth-clients`);
    await ada.getByRole('form', { name: 'Create OAuth client' }).waitFor();
    await check(ada, 'admin-oauth-clients');

    // The assistant: Shift+Enter adds a line, Enter sends; the reply streams in without moving the page.
    const todoId = await ada.evaluate(async (path) => {
      const token = (globalThis as unknown as BrowserGlobals).sessionStorage.getItem('wildo.accessToken');
      const response = await fetch(path, { headers: { authorization: `Bearer ${token}` } });
      return ((await response.json()) as { data: Array<{ _id: string }> }).data[0]?._id ?? '';
    }, `/api/v1/organizations/${orgId}/todos?status=todo`);
    // The organization's Assistant section lists the declared views (flowsActorsViews) as launcher entries.
    await ada.goto(`${orgBase}/assistant`);
    await ada.getByRole('navigation', { name: 'Assistants' }).getByRole('link', { name: 'Todo assistant' }).click();
    await ada.waitForURL((url) => url.pathname === `/organizations/${orgId}/views/todo-assistant-view`);
    await ada.getByRole('heading', { level: 1, name: 'Todo assistant' }).waitFor();
    const messageBox = ada.getByLabel('Message');
    await messageBox.fill('First line');
    await messageBox.press('Shift+Enter');
    await messageBox.pressSequentially('second line');
    expect(await messageBox.inputValue()).toBe('First line\nsecond line');
    // Every layout shift from here to the approval card's arrival is recorded.
    await recordLayoutShifts(ada);
    const composerBefore = await messageBox.boundingBox();
    const turn = ada.waitForRequest((request) => request.url().endsWith('/flows-actors/systems/todo-assistant/turns'));
    await messageBox.press('Enter');
    expect((await turn).postDataJSON()).toMatchObject({ message: 'First line\nsecond line' });
    const log = ada.getByRole('log', { name: 'Conversation' });
    await log.getByText('Assistant').first().waitFor();
    await expect.poll(() => ada.locator('section.assistant').getAttribute('aria-busy')).toBe('false');
    expect(await messageBox.inputValue()).toBe('');
    expect(await messageBox.boundingBox()).toEqual(composerBefore);

    // A gated tool call pauses on the guide's approval request beside the conversation; approving runs it.
    await messageBox.fill(`call resource_todos_update {"id": "${todoId}", "title": "Weekly shop"}`);
    await messageBox.press('Enter');
    const card = ada.getByRole('region', { name: 'Approval needed' });
    await card.waitFor();
    await ada.getByText('(shown above)').waitFor();
    // Neither the composer nor anything else has moved.
    expect(await messageBox.boundingBox()).toEqual(composerBefore);
    expect(await recordedLayoutShift(ada)).toBeLessThan(0.001);
    // Control: the same recording does report a shift when a block is put above the conversation.
    await recordLayoutShifts(ada);
    const pushedDown = await ada.evaluate(() => {
      const g = globalThis as unknown as {
        document: {
          createElement(tag: string): { style: { height: string }; id: string };
          querySelector(selector: string): { before(node: unknown): void } | null;
        };
      };
      const block = g.document.createElement('div');
      block.style.height = '120px';
      block.id = 'layout-shift-control';
      g.document.querySelector('.assistant__layout')?.before(block);
    });
    expect(pushedDown).toBeUndefined();
    expect(await recordedLayoutShift(ada)).toBeGreaterThan(0.01);
    await ada.locator('#layout-shift-control').evaluate((block) => (block as unknown as { remove(): void }).remove());
    await check(ada, 'assistant');
    await card.getByRole('button', { name: 'Approve' }).click();
    await ada.getByText('Nothing is waiting for your approval.').waitFor();
    await expect
      .poll(async () => (await apiFromPage(ada, 'GET', `/api/v1/organizations/${orgId}/todos/${todoId}`)).body)
      .toMatchObject({ data: { title: 'Weekly shop' } });

    // At 375 px the decision follows the composer: a gated call arriving there moves nothing either (denied).
    await ada.setViewportSize({ width: 375, height: 740 });
    await messageBox.fill(`call resource_todos_update {"id": "${todoId}", "title": "Not this"}`);
    await recordLayoutShifts(ada);
    const narrowComposer = await messageBox.boundingBox();
    await messageBox.press('Enter');
    await card.waitFor();
    await ada.getByText('(shown above)').waitFor();
    expect(await messageBox.boundingBox()).toEqual(narrowComposer);
    expect(await recordedLayoutShift(ada)).toBeLessThan(0.001);
    await card.getByRole('button', { name: 'Deny' }).click();
    await ada.getByText('Nothing is waiting for your approval.').waitFor();
    await ada.setViewportSize({ width: 1280, height: 800 });

    // Switching organization keeps the section; leaving sends the person back to their organizations.
    await showTab(carol);
    await carol.goto(`${base}/organizations`);
    await carol.getByLabel('Organization name').fill('Difference Ltd');
    await carol.getByRole('button', { name: 'Create organization' }).click();
    await carol.getByRole('heading', { level: 1, name: 'Difference Ltd' }).waitFor();
    await showTab(grace);
    await grace.goto(`${orgBase}/todos`);
    await grace.getByRole('heading', { level: 1, name: 'Todos' }).waitFor();
    await grace.goto(orgBase);
    await grace.getByRole('button', { name: 'Leave organization' }).click();
    await grace.getByRole('button', { name: 'Yes, leave Analytical Engines' }).click();
    await grace.waitForURL((url) => url.pathname === '/organizations');
    await grace.getByText('You are not a member of any organization yet.').waitFor();
    await showTab(ada);
    await ada.goto(orgBase);
    await expect.poll(() => ada.getByText(emailOf('grace')).count()).toBe(1);

    expect(problems).toEqual([]);
    expect(chromium.pageErrors).toEqual([]);
    expect(chromium.serverErrors).toEqual([]);
  }, 400_000);
});
