import {
  CORE_ORG_ROLES,
  ResourceOperationEffect,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
  type AnyResourceDeclaration,
} from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createResourceCustomServiceImplementation } from './custom-service.js';
import { ResourcesRegistry } from './resources-registry.service.js';

/** A resource with one instance operation `archive`, declared with `httpMethods` when given. */
function registryWith(httpMethods?: readonly ('POST' | 'PUT')[]) {
  const declaration: AnyResourceDeclaration = {
    type: 'notes',
    displayName: 'Notes',
    primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
    schema: z.object({ title: z.string() }),
    customOperations: {
      archive: {
        target: 'instance',
        ...(httpMethods ? { httpMethods } : {}),
        requestSchema: z.object({}),
        responseSchema: z.object({}),
        effect: ResourceOperationEffect.WRITE,
      },
    },
    operationsConfiguration: {
      archive: {
        variants: [
          { variantType: ResourceOperationVariantType.API_CALL, isDefault: true, roles: [CORE_ORG_ROLES.ORG_MEMBER] },
        ],
      },
    },
  };
  const implementation = createResourceCustomServiceImplementation('notes', {
    customOperations: { archive: async () => ({}) },
  });
  return () =>
    ResourcesRegistry.fromApplication({
      name: 'test',
      modules: [{ name: 'm', resources: [declaration], customServiceImplementations: [implementation] }],
    });
}

describe('the methods of a custom operation’s route', () => {
  it('is POST by default', () => {
    expect(registryWith()().getOperationFromPath('notes.archive').http).toEqual({
      method: 'POST',
      path: '/organizations/:organizationId/notes/:id/archive',
    });
  });

  it('documents the first declared method and accepts the others on the same route', () => {
    expect(registryWith(['PUT', 'POST'])().getOperationFromPath('notes.archive').http).toEqual({
      method: 'PUT',
      path: '/organizations/:organizationId/notes/:id/archive',
      alsoAccepts: ['POST'],
    });
  });

  it.each([{ methods: ['PUT', 'PUT'] as const }, { methods: [] as const }])(
    'refuses $methods at start, naming the field',
    ({ methods }) => {
      expect(registryWith(methods)).toThrow(/customOperations\.archive\.httpMethods/);
    },
  );
});
