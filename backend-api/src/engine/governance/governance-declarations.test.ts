import {
  CORE_APP_ROLES,
  CORE_ORG_ROLES,
  defineResource,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
  z_html,
  z_image,
  z_webPage,
  type AnyResourceDeclaration,
  type ResourceCustomOperationDefinition,
  type ResourceOperationVariant,
} from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DeclarationValidationError } from '../resources/resources.errors.js';
import { ResourcesRegistry } from '../resources/resources-registry.service.js';
import { governanceProbesApplication } from './governance-probes.fixtures.js';

// Every governance declaration mistake is refused at start with one line naming the declaration, the place and the fix.

const API_CALL = ResourceOperationVariantType.API_CALL;
const member = { variantType: API_CALL, roles: [CORE_ORG_ROLES.ORG_MEMBER] };

function stays(
  operation: Partial<ResourceCustomOperationDefinition>,
  variant: Partial<ResourceOperationVariant> = {},
): AnyResourceDeclaration {
  return {
    type: 'stays',
    displayName: 'Stays',
    primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
    schema: z.object({ name: z.string() }),
    customOperations: {
      look: {
        target: 'collection',
        requestSchema: z.object({}),
        responseSchema: z.object({ ok: z.boolean() }),
        effect: 'read',
        ...operation,
      },
    },
    operationsConfiguration: { look: { variants: [{ ...member, ...variant }] } },
  };
}

/** The lines of the start-up refusal for one resource, or [] when it starts. */
function refusal(resource: AnyResourceDeclaration): string[] {
  try {
    ResourcesRegistry.fromApplication({ name: 'test', modules: [{ name: 'stays', resources: [resource] }] });
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(DeclarationValidationError);
    return (error as Error).message.split('\n').slice(1);
  }
}

describe('governance declarations at start', () => {
  it('accepts the probes application: effects by name, failures, policies, images, pages and HTML', () => {
    expect(() => ResourcesRegistry.fromApplication(governanceProbesApplication)).not.toThrow();
  });

  it('refuses an origin that is not https, carries a path or credentials, with the fix', () => {
    const lines = refusal(
      stays({
        responseSchema: z.object({
          photos: z.array(
            z_image({ origins: ['http://img.example', 'https://img.example/photos', 'https://u@img.example'] }),
          ),
        }),
      }),
    );
    expect(lines).toEqual([
      '  - resource "stays" › customOperations.look.responseSchema.photos[].origins[0]: "http://img.example" must use https',
      '  - resource "stays" › customOperations.look.responseSchema.photos[].origins[1]: "https://img.example/photos" must be an origin only (scheme, host and port), with no path, query or fragment',
      '  - resource "stays" › customOperations.look.responseSchema.photos[].origins[2]: "https://u@img.example" must not carry credentials',
    ]);
  });

  it('refuses an image, page or HTML value that could not be withheld (a required field), and an image with no origin', () => {
    const lines = refusal(
      stays({
        responseSchema: z.object({
          cover: z_image({ origins: ['https://img.example'] }),
          page: z_webPage({ origins: [] }).optional(),
          body: z_html({ origins: { images: [], pages: [] } }),
        }),
      }),
    );
    expect(lines).toEqual([
      '  - resource "stays" › customOperations.look.responseSchema.cover: an image value can be withheld, so it must be optional (add .optional()) or an item of a list',
      '  - resource "stays" › customOperations.look.responseSchema.page.origins: declare at least one origin a web page value may lie on, such as https://images.example.com',
      '  - resource "stays" › customOperations.look.responseSchema.body: an HTML value can be withheld, so it must be optional (add .optional()) or an item of a list',
    ]);
  });

  it('refuses a role matcher that can never match in the resource’s scope', () => {
    const lines = refusal(stays({}, { policies: { allow: [{ kind: 'role', role: CORE_APP_ROLES.APP_ADMIN }] } }));
    expect(lines).toEqual([
      '  - resource "stays" › operationsConfiguration.look.variants[0].policies.allow[0].role: APP_ADMIN can never match here; use one of ORG_ADMIN, ORG_MANAGER, ORG_MEMBER',
    ]);
  });

  it('refuses authenticated: false, an unknown matcher, an empty allow list and a malformed failure code', () => {
    const lines = refusal(
      stays(
        { failures: { 'quote expired': 'x', ok: '' } },
        {
          policies: { authenticated: false as never, allow: [], deny: [{ kind: 'anyone' } as never] },
        },
      ),
    );
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/policies\.authenticated: every operation requires a verified caller/),
        expect.stringMatching(/policies\.allow: an empty allow list admits nobody/),
        expect.stringMatching(/policies\.deny\[0\]\.kind: a principal matcher/),
        expect.stringMatching(/customOperations\.look\.failures\.quote expired: a failure code of letters/),
        expect.stringMatching(/customOperations\.look\.failures\.ok: describe the failure for the caller/),
      ]),
    );
    for (const line of lines) expect(line).toMatch(/^ {2}- resource "stays" › \S/);
  });
});

describe('governance declarations in the types', () => {
  it('types failure codes and role matchers from the declaration (checked by tsc)', () => {
    const handle = defineResource({
      type: 'bookings',
      displayName: 'Bookings',
      primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
      schema: z.object({ name: z.string() }),
      customOperations: {
        pay: {
          target: 'collection',
          requestSchema: z.object({}),
          responseSchema: z.object({ paid: z.boolean() }),
          effect: 'irreversible',
          failures: { 'quote-expired': 'The quote has expired.' },
        },
      },
      operationsConfiguration: {
        pay: {
          variants: [
            {
              ...member,
              // @ts-expect-error -- an application role can never match on an organization resource
              policies: { allow: [{ kind: 'role', role: CORE_APP_ROLES.APP_ADMIN }] },
            },
          ],
        },
      },
    });
    const service = handle.implement({
      pay: async ({ utils }) => {
        if (Date.now() < 0) throw utils.errorBuilder.failure('quote-expired');
        // @ts-expect-error -- a code the operation does not declare
        if (Date.now() < 0) throw utils.errorBuilder.failure('quote-lost');
        return { paid: true };
      },
    });
    expect(service.resourceType).toBe('bookings');
  });
});
