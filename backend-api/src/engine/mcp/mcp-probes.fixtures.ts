import {
  CORE_APP_ROLES,
  CORE_ORG_ROLES,
  CoreResourceOperation,
  defineResource,
  ResourceOperationEffect,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
} from '@wildo/shared-lib';
import { z } from 'zod';
import type { BackendApplicationDefinition } from '../bootstrap/backend-domain-module.js';
import { createResourceCustomServiceImplementation } from '../resources/custom-service.js';

// Test-only: a small application that exercises what the reference application does not declare
// (lifecycle states, a handler that over-returns, non-object results, application and user scopes).

const API_CALL = ResourceOperationVariantType.API_CALL;
const member = [CORE_ORG_ROLES.ORG_MEMBER];
const appUser = [CORE_APP_ROLES.APP_USER];
const ok = z.object({ ok: z.boolean() });
const noInput = z.object({});

/** What `probes__leaky` declares it returns; its handler returns more, at every depth. */
export const LeakyReportSchema = z.object({
  title: z.string(),
  owner: z.object({ name: z.string() }),
  items: z.array(z.object({ label: z.string() })),
});

/** Values and key names the leaky handler adds; none may reach a client. */
export const LEAKED = {
  keys: ['secretToken', 'passwordHash', 'internalCost'],
  values: ['tok-7f3a9c-do-not-show', 'argon2id$leak', '4242.17'],
} as const;

/** Internal text the failing handler throws; no client may see it. */
export const INTERNAL_DETAIL = 'secret-internal-detail';

const probes = defineResource({
  type: 'probes',
  displayName: 'Probes',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: z.object({ label: z.string().min(1).max(100) }),
  customOperations: {
    preview: { target: 'collection', requestSchema: noInput, responseSchema: ok, effect: ResourceOperationEffect.READ },
    legacy: { target: 'collection', requestSchema: noInput, responseSchema: ok, effect: ResourceOperationEffect.READ },
    sunset: {
      target: 'instance',
      requestSchema: z.object({ reason: z.string().max(50) }),
      responseSchema: ok,
      effect: ResourceOperationEffect.WRITE,
    },
    leaky: {
      target: 'collection',
      requestSchema: noInput,
      responseSchema: LeakyReportSchema,
      effect: ResourceOperationEffect.READ,
    },
    tags: {
      target: 'collection',
      requestSchema: noInput,
      responseSchema: z.array(z.string()),
      effect: ResourceOperationEffect.READ,
    },
    explode: { target: 'collection', requestSchema: noInput, responseSchema: ok, effect: ResourceOperationEffect.READ },
    guarded: {
      target: 'collection',
      requestSchema: noInput,
      responseSchema: ok,
      effect: ResourceOperationEffect.WRITE,
    },
  },
  operationsConfiguration: {
    [CoreResourceOperation.CREATE]: {
      variants: [{ variantType: API_CALL, isDefault: true, roles: member, mcp: { exposed: true } }],
    },
    preview: {
      variants: [
        {
          variantType: API_CALL,
          isDefault: true,
          roles: member,
          lifecycle: 'experimental',
          mcp: { exposed: true, description: 'Preview.' },
        },
      ],
    },
    legacy: {
      variants: [
        {
          variantType: API_CALL,
          isDefault: true,
          roles: member,
          lifecycle: 'deprecated',
          mcp: { exposed: true, description: 'The old way.' },
        },
      ],
    },
    sunset: {
      variants: [
        { variantType: API_CALL, isDefault: true, roles: member, lifecycle: 'retired', mcp: { exposed: true } },
      ],
    },
    leaky: { variants: [{ variantType: API_CALL, isDefault: true, roles: member, mcp: { exposed: true } }] },
    tags: { variants: [{ variantType: API_CALL, isDefault: true, roles: member, mcp: { exposed: true } }] },
    explode: { variants: [{ variantType: API_CALL, isDefault: true, roles: member, mcp: { exposed: true } }] },
    guarded: { variants: [{ variantType: API_CALL, isDefault: true, roles: member, requiresReauthentication: true }] },
  },
});

const bulletins = defineResource({
  type: 'bulletins',
  displayName: 'Bulletins',
  primaryScope: ResourcePrimaryScope.APPLICATION,
  schema: z.object({ headline: z.string().min(1).max(100) }),
  operationsConfiguration: {
    [CoreResourceOperation.LIST]: {
      variants: [{ variantType: API_CALL, isDefault: true, roles: appUser, mcp: { exposed: true } }],
    },
  },
});

const memos = defineResource({
  type: 'memos',
  displayName: 'Memos',
  primaryScope: ResourcePrimaryScope.USER,
  schema: z.object({ text: z.string().min(1).max(100) }),
  operationsConfiguration: {
    [CoreResourceOperation.LIST]: {
      variants: [{ variantType: API_CALL, isDefault: true, roles: appUser, mcp: { exposed: true } }],
    },
  },
});

/** The probes application (test-only). */
export const mcpProbesApplication: BackendApplicationDefinition = {
  name: 'mcp-probes',
  modules: [
    {
      name: 'mcp-probes',
      resources: [probes, bulletins, memos],
      customServiceImplementations: [
        createResourceCustomServiceImplementation('probes', {
          customOperations: {
            preview: async () => ({ ok: true }),
            legacy: async () => ({ ok: true }),
            sunset: async () => ({ ok: true }),
            leaky: async () => ({
              title: 'Quarterly report',
              secretToken: LEAKED.values[0],
              owner: { name: 'Ada', passwordHash: LEAKED.values[1] },
              items: [{ label: 'first' }, { label: 'second', internalCost: Number(LEAKED.values[2]) }],
            }),
            tags: async () => ['alpha', 'beta'],
            explode: async () => {
              throw new Error(`connection to 10.0.0.7:5432 refused (${INTERNAL_DETAIL})`);
            },
            guarded: async () => ({ ok: true }),
          },
        }),
      ],
    },
  ],
};
