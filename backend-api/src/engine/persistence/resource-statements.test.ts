import { describe, expect, it } from 'vitest';
import type { ResourceStoreDefinition, TenantScope } from './resource-store.js';
import { ResourceStatements, statementsFor } from './resource-statements.js';

const todos: ResourceStoreDefinition = {
  resourceType: 'todos',
  scope: 'organization',
  filterFields: [{ name: 'status', kind: 'string' }],
  searchFields: ['title'],
};
const kinds: TenantScope['kind'][] = ['application', 'organization', 'user'];

/** Every statement variant of a definition. */
function everyStatement(statements: ResourceStatements) {
  return kinds.flatMap((kind) =>
    [true, false].flatMap((a) =>
      [true, false].flatMap((b) => [
        statements.findById(kind, a),
        statements.probe(kind, a),
        statements.list(kind, a, b, !b),
        statements.search(kind, a, b, !a),
        statements.countBy(kind, a),
        statements.update(kind, a),
        statements.delete(kind, a, b),
      ]),
    ),
  );
}

describe('resource statements', () => {
  it('confine every statement that reads or writes existing rows to the tenant', () => {
    for (const statement of everyStatement(new ResourceStatements(todos))) {
      expect(statement.text).toMatch(
        /organization_id IS NULL AND user_id IS NULL|organization_id = \$\d|user_id = \$\d/,
      );
    }
  });

  it('are built once per definition and variant', () => {
    const statements = statementsFor(todos);
    expect(statementsFor(todos)).toBe(statements);
    expect(statements.findById('organization', false)).toBe(statements.findById('organization', false));
  });

  it('find a record by primary key and scope in one statement', () => {
    const statement = statementsFor(todos).findById('organization', true);
    expect(statement.text).toBe(
      'SELECT id, seq, organization_id, user_id, created_by_user_id, created_by_type, created_by_id, created_at, updated_at, version, data ' +
        'FROM "r_todos" WHERE id = $1 AND organization_id = $2 AND created_by_user_id = $3',
    );
    expect(statement.bind({ scopeId: 'org', id: 'r1', ownerId: 'u1' })).toEqual(['r1', 'org', 'u1']);
  });

  it('number a parameter used twice once (search text in match and rank)', () => {
    const statement = statementsFor(todos).search('application', false, false, true);
    expect(statement.text.match(/websearch_to_tsquery\('simple'::regconfig, \$1::text\)/g)).toHaveLength(2);
    expect(statement.bind({ text: 'x', limit: 11, offset: 0 })).toEqual(['x', 11, 0]);
  });

  it('insert application records with neither tenant column', () => {
    expect(statementsFor(todos).insert('application').text).toContain('VALUES ($1, NULL, NULL,');
  });
});
