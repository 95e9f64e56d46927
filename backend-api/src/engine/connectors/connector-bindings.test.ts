import { CORE_APP_ROLES, defineResource, ResourceOperationVariantType, ResourcePrimaryScope } from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileApplicationResources, type DeclarationProblem } from '../resources/index.js';
import { boundImplementation } from './bind-resource.js';
import { compileApplicationBindings } from './connector-bindings.js';
import { restConnector, sqlConnector } from './connectors.js';
import type { OperationBinding } from './connector.types.js';

// Start-up checks of bindings that types cannot catch (a manifest, untyped code): one line per mistake, naming the
// binding, the place inside it and the fix.
const variant = { variantType: ResourceOperationVariantType.API_CALL, roles: [CORE_APP_ROLES.APP_USER] };
const stays = defineResource({
  type: 'stays',
  displayName: 'Stays',
  primaryScope: ResourcePrimaryScope.APPLICATION,
  schema: z.object({ name: z.string() }),
  customOperations: {
    lookup: {
      target: 'collection',
      requestSchema: z.strictObject({ stayId: z.string() }),
      responseSchema: z.object({ stay: z.object({ name: z.string() }) }),
      effect: 'read',
    },
  },
  operationsConfiguration: { lookup: { variants: [variant] } },
});

function problemsOf(bindings: Record<string, unknown>): string[] {
  const application = {
    name: 'app',
    modules: [
      {
        name: 'stays',
        resources: [stays],
        customServiceImplementations: [boundImplementation('stays', bindings as Record<string, OperationBinding>)],
      },
    ],
  };
  const compiled = compileApplicationResources(application);
  const problems: DeclarationProblem[] = [];
  compileApplicationBindings(application, compiled.resources, compiled.refusedTypes, problems);
  return problems.map((p) => `${p.declaration} › ${p.path}: ${p.message}`);
}

const agency = restConnector({ name: 'agency', baseUrl: '${AGENCY_URL}' });

describe('binding checks at start', () => {
  it('accepts a binding whose placeholders and maps name declared fields (the positive control)', () => {
    expect(
      problemsOf({
        lookup: {
          connector: agency,
          method: 'GET',
          path: '/stays/{stayId}',
          response: { into: 'stay', map: { name: '$.title' } },
        },
      }),
    ).toEqual([]);
  });

  it('names a placeholder that is not an input field and a map key that is not an output field', () => {
    expect(
      problemsOf({
        lookup: {
          connector: agency,
          method: 'GET',
          path: '/stays/{stay}',
          response: { into: 'stay', map: { title: '$.title' } },
        },
      }),
    ).toEqual([
      'binding "stays.lookup" (module "stays") › response.map.title: "title" is not declared in the output; map declared fields only (name)',
      'binding "stays.lookup" (module "stays") › {stay}: "stay" is not a field of the input; use one of: stayId',
    ]);
  });

  it('refuses a literal connection string, a statement that writes, and unmatched parameters', () => {
    const problems = problemsOf({
      lookup: {
        connector: sqlConnector({ name: 'db', dsn: 'postgres://app:secret@db/app' }),
        sql: 'UPDATE stays SET name = $1 WHERE id = $2',
        params: ['stayId'],
        response: { into: 'stay', map: { name: '$[0].name' } },
      },
    }).join('\n');
    expect(problems).toMatch(/› sql: a SQL binding runs one SELECT statement/);
    expect(problems).toMatch(/› params: the statement uses 2 parameter\(s\)/);
    expect(problems).toMatch(/› connector\.dsn: read the connection string from the environment, whole/);
    expect(problems).not.toContain('secret');
  });

  it('refuses a binding for an operation the resource does not declare', () => {
    const binding = { connector: agency, method: 'GET', path: '/x', response: { map: {} } };
    expect(problemsOf({ lookup: binding, missing: binding }).join('\n')).toMatch(
      /binding "stays.missing" .* resource "stays" declares no custom operation "missing"/,
    );
  });
});
