import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BackendApplicationDefinition } from '@wildo/backend-api';
import { signUpThroughOutbox } from '@wildo/backend-api/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationFiles, resolveScaffold } from '../create-wildo/src/index.js';
import { checkPageAtWidths } from '../frontend/browser/accessibility.js';
import { sharedAppBuild } from '../frontend/browser/build-app.js';
import { CHROMIUM_AVAILABLE, launchChromium, type HeadlessChromium } from '../frontend/browser/headless-chromium.js';
import { startRealBackend, type RealBackend } from './oauth/real-backend.js';

// The host UI reads the declarations: the module `create-wildo` writes (tickets), plus one resource added to it
// (equipment), loaded in-process from a scaffolded folder (no packing, no install: the pack-and-scaffold test does
// that), served with the built host UI. Nothing in the frontend names either resource; their pages come from the
// description the backend serves. One backend, one browser, one build for the whole file.

const REPO_ROOT = path.resolve(import.meta.dirname, '..');
const PASSWORD = 'a long passphrase';

/** The resource the test adds to the scaffolded module, as an application developer would write it. */
const ADDED_RESOURCE = `import {
  CORE_ORG_ROLES,
  defineResource,
  ResourceOperationEffect,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
  resourceRecordSchema,
} from '@wildo/shared-lib';
import { defineBackendApplication } from '@wildo/backend-api';
import { z } from 'zod';
import { ticketsModule } from './tickets/tickets.module.js';

const member = { variantType: ResourceOperationVariantType.API_CALL, roles: [CORE_ORG_ROLES.ORG_MEMBER] };
const manager = { ...member, roles: [CORE_ORG_ROLES.ORG_MANAGER] };

export const EquipmentSchema = z.object({
  name: z.string().min(1).max(120),
  kind: z.enum(['laptop', 'phone', 'desk']),
  quantity: z.number().int().min(1).max(50).default(1),
  serial: z.string().max(40).optional(),
  retired: z.boolean().default(false),
});

/** The organization's equipment: members add, edit and list it (by kind); managers retire and delete it. */
export const equipment = defineResource({
  type: 'equipment',
  displayName: 'Equipment',
  singular: 'item',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: EquipmentSchema,
  readOnlyFields: ['retired'],
  customOperations: {
    retire: {
      target: 'instance',
      displayName: 'Retire',
      requestSchema: z.strictObject({}),
      responseSchema: resourceRecordSchema(EquipmentSchema, ResourcePrimaryScope.ORGANIZATIONS),
      effect: ResourceOperationEffect.IRREVERSIBLE,
      description: 'Takes an item out of service for good.',
    },
  },
  operationsConfiguration: {
    create: { variants: [member] },
    read: { variants: [member] },
    update: { variants: [member] },
    delete: { variants: [manager] },
    list: { variants: [{ ...member, filters: ['kind'] }] },
    retire: { variants: [manager] },
  },
});

export const equipmentService = equipment.implement({
  retire: async ({ id, utils }) => {
    const retired = await utils.records.update(id, { retired: true });
    if (!retired) throw utils.errorBuilder.notFound();
    return retired;
  },
});

export const application = defineBackendApplication({
  name: 'declared-pages',
  modules: [
    {
      ...ticketsModule,
      resources: [...(ticketsModule.resources ?? []), equipment],
      customServiceImplementations: [...(ticketsModule.customServiceImplementations ?? []), equipmentService],
    },
  ],
});
`;

/**
 * Writes the scaffolded module and the added resource into a folder outside the repository, with the scaffold's
 * tsconfig (decorators) and a node_modules that links the packages an installed application would have.
 */
async function writeApplication(dir: string): Promise<string> {
  const scaffold = resolveScaffold({ dir, moduleName: 'tickets' }, '0.1.0');
  const files = applicationFiles(scaffold);
  const wanted = ['tsconfig.json', 'src/tickets/tickets.module.ts', 'src/tickets/tickets-digest.service.ts'];
  for (const relative of wanted) {
    await mkdir(path.dirname(path.join(dir, relative)), { recursive: true });
    await writeFile(path.join(dir, relative), files[relative] ?? '');
  }
  await writeFile(path.join(dir, 'src/application.ts'), ADDED_RESOURCE);
  const links: Record<string, string> = {
    '@wildo/backend-api': path.join(REPO_ROOT, 'backend-api'),
    '@wildo/shared-lib': path.join(REPO_ROOT, 'shared-lib'),
    // The engine's own copies: one zod and one inversify in the process, as an installed application has.
    zod: path.join(REPO_ROOT, 'backend-api/node_modules/zod'),
    inversify: path.join(REPO_ROOT, 'backend-api/node_modules/inversify'),
  };
  for (const [name, target] of Object.entries(links)) {
    await mkdir(path.dirname(path.join(dir, 'node_modules', name)), { recursive: true });
    await symlink(await realpath(target), path.join(dir, 'node_modules', name), 'dir');
  }
  return path.join(dir, 'src/application.ts');
}

describe.skipIf(!CHROMIUM_AVAILABLE)('pages generated from the declarations (scaffolded module + one resource)', () => {
  let dir: string;
  let server: RealBackend;
  let chromium: HeadlessChromium;
  let base: string;
  let organizationId: string;
  let adminToken: string;
  let memberToken: string;

  const api = async (token: string, method: string, pathname: string, body?: unknown) => {
    const response = await fetch(`${base}/api/v1${pathname}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as { data?: any; error?: any } };
  };

  beforeAll(async () => {
    const launching = launchChromium({ width: 1280, height: 800 });
    try {
      dir = await mkdtemp(path.join(os.tmpdir(), 'wildo-declared-pages-'));
      const entry = await writeApplication(dir);
      const { application } = (await import(/* @vite-ignore */ entry)) as {
        application: BackendApplicationDefinition;
      };
      server = await startRealBackend({ frontendDist: await sharedAppBuild(), application });
      base = server.issuer;
    } finally {
      chromium = await launching;
    }
    const apiUrl = `${base}/api/v1`;
    const run = Date.now().toString(36);
    adminToken = (await signUpThroughOutbox(apiUrl, { email: `admin-${run}@example.test`, password: PASSWORD }))
      .accessToken;
    const member = await signUpThroughOutbox(apiUrl, { email: `member-${run}@example.test`, password: PASSWORD });
    organizationId = (await api(adminToken, 'POST', '/organizations', { name: 'Workshop' })).body.data._id;
    const invitation = await api(adminToken, 'POST', `/organizations/${organizationId}/invitations`, {
      email: `member-${run}@example.test`,
      role: 'ORG_MEMBER',
    });
    const accepted = await api(member.accessToken, 'POST', `/invitations/${invitation.body.data._id}/accept`);
    memberToken = accepted.body.data.accessToken;
  });

  afterAll(async () => {
    await chromium?.close();
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A tab signed in with `token` (the host UI keeps the session in the tab's sessionStorage). */
  async function tabOf(token: string): Promise<Page> {
    const page = await chromium.context.newPage();
    page.on('pageerror', (error) => chromium.pageErrors.push(error.message));
    await page.addInitScript((value) => {
      // This program is type-checked without the DOM library.
      (
        globalThis as unknown as { sessionStorage: { setItem(key: string, value: string): void } }
      ).sessionStorage.setItem('wildo.accessToken', value);
    }, token);
    return page;
  }

  const equipmentList = (page: Page) => page.getByRole('list', { name: 'Equipment' });

  it('lists, creates, edits, filters and deletes a resource no page was written for', async () => {
    const page = await tabOf(adminToken);
    await page.goto(`${base}/organizations/${organizationId}`);
    const nav = page.getByRole('navigation', { name: 'Organization' });
    await nav.getByRole('link', { name: 'Tickets' }).waitFor();
    await nav.getByRole('link', { name: 'Equipment' }).click();
    await page.getByRole('heading', { level: 1, name: 'Equipment' }).waitFor();
    await page.getByText('No equipment here.').waitFor();

    // The create form comes from the schema; its checks speak plainly before anything is sent.
    const form = page.getByRole('form', { name: 'New item' });
    await form.getByLabel('Quantity (optional)').fill('2.5');
    await form.getByRole('button', { name: 'Create item' }).click();
    await expect.poll(() => form.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    expect(await form.getByText('Enter a name.').count()).toBe(1);
    expect(await form.getByText('Enter a whole number.').count()).toBe(1);
    expect(await form.getByLabel('Retired').count()).toBe(0);

    await form.getByLabel('Name').fill('Laptop for Ada');
    await form.getByLabel('Kind').selectOption('laptop');
    await form.getByLabel('Quantity (optional)').fill('2');
    await form.getByRole('button', { name: 'Create item' }).click();
    await page.getByRole('status').getByText('Item “Laptop for Ada” created.').waitFor();
    await form.getByLabel('Name').fill('Standing desk');
    await form.getByLabel('Kind').selectOption('desk');
    await form.getByRole('button', { name: 'Create item' }).click();
    await equipmentList(page).getByRole('heading', { name: 'Standing desk' }).waitFor();
    expect(await equipmentList(page).getByText('Kind: Laptop · Quantity: 2 · Retired: No').count()).toBe(1);

    // The declared filter (kind), and nothing else, is offered.
    const filters = page.getByRole('form', { name: 'Filter equipment' });
    expect(await filters.getByRole('combobox').count()).toBe(1);
    await filters.getByLabel('Kind').selectOption('desk');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await expect
      .poll(() => equipmentList(page).getByRole('heading', { level: 2 }).allTextContents())
      .toEqual(['Standing desk']);
    await filters.getByLabel('Kind').selectOption('');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await equipmentList(page).getByRole('heading', { name: 'Laptop for Ada' }).waitFor();

    // Edit: the form holds the record's values; only what changed is sent.
    await page.getByRole('button', { name: 'Edit Laptop for Ada' }).click();
    const edit = page.getByRole('form', { name: 'Edit item' });
    expect(await edit.getByLabel('Name').inputValue()).toBe('Laptop for Ada');
    await edit.getByLabel('Name').fill('Laptop for Grace');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await equipmentList(page).getByRole('heading', { name: 'Laptop for Grace' }).waitFor();
    // The generated page passes the checks every page does (axe, 375 and 1280 px, no sideways scroll).
    expect(await checkPageAtWidths(page, 'declared-equipment')).toEqual([]);

    // A manager's custom operation (irreversible: confirmed first), then delete.
    await page.getByRole('button', { name: 'Retire Laptop for Grace' }).click();
    await page.getByRole('button', { name: 'Yes, retire Laptop for Grace' }).click();
    await equipmentList(page).getByText('Retired: Yes').waitFor();
    await page.getByRole('button', { name: 'Delete Standing desk' }).click();
    await page.getByRole('button', { name: 'Yes, delete Standing desk' }).click();
    await expect
      .poll(() => equipmentList(page).getByRole('heading', { level: 2 }).allTextContents())
      .toEqual(['Laptop for Grace']);

    // The scaffolded module's own resource: its instance operation takes input, from its request schema.
    await nav.getByRole('link', { name: 'Tickets' }).click();
    await page.getByRole('heading', { level: 1, name: 'Tickets' }).waitFor();
    const newTicket = page.getByRole('form', { name: 'New ticket' });
    await newTicket.getByLabel('Title').fill('Printer jams');
    await newTicket.getByRole('button', { name: 'Create ticket' }).click();
    await page.getByRole('button', { name: 'Close Printer jams' }).click();
    const close = page.getByRole('form', { name: 'Close Printer jams' });
    await close.getByRole('button', { name: 'Close' }).click();
    await close.getByText('Enter a resolution.').waitFor();
    await close.getByLabel('Resolution').fill('New roller fitted');
    await close.getByRole('button', { name: 'Close' }).click();
    await page.getByText('Status: Closed · Resolution: New roller fitted').waitFor();
    expect(chromium.pageErrors).toEqual([]);
    await page.close();
  });

  it('offers a member nothing a member may not run, and the server refuses it too', async () => {
    const created = await api(adminToken, 'POST', `/organizations/${organizationId}/equipment`, {
      name: 'Phone for the desk',
      kind: 'phone',
    });
    expect(created.status).toBe(201);
    const page = await tabOf(memberToken);
    await page.goto(`${base}/organizations/${organizationId}/records/equipment`);
    await equipmentList(page).getByRole('heading', { name: 'Phone for the desk' }).waitFor();
    // Positive control: what a member may do is offered.
    expect(await page.getByRole('button', { name: 'Edit Phone for the desk' }).count()).toBe(1);
    expect(await page.getByRole('form', { name: 'New item' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: /^Delete / }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Retire / }).count()).toBe(0);

    const id = created.body.data._id as string;
    const deleted = await api(memberToken, 'DELETE', `/organizations/${organizationId}/equipment/${id}`);
    const retired = await api(memberToken, 'POST', `/organizations/${organizationId}/equipment/${id}/retire`, {});
    expect([deleted.status, deleted.body.error?.reason]).toEqual([403, 'role_refused']);
    expect([retired.status, retired.body.error?.reason]).toEqual([403, 'role_refused']);
    expect((await api(memberToken, 'GET', `/organizations/${organizationId}/equipment/${id}`)).body.data).toMatchObject(
      {
        retired: false,
      },
    );
    expect(chromium.pageErrors).toEqual([]);
    expect(server.errorLog).toEqual([]);
    await page.close();
  });
});
