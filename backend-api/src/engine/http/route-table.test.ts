import { describe, expect, it } from 'vitest';
import { RouteTable } from './route-table.js';

const table = new RouteTable([
  { method: 'GET', pattern: '/organizations/:organizationId/todos', target: 'list' },
  { method: 'POST', pattern: '/organizations/:organizationId/todos', target: 'create' },
  { method: 'GET', pattern: '/organizations/:organizationId/todos/:id', target: 'read' },
  { method: 'DELETE', pattern: '/organizations/:organizationId/todos/:id', target: 'delete' },
  { method: 'GET', pattern: '/organizations/:organizationId/todos/search', target: 'search' },
]);

describe('RouteTable', () => {
  it('finds a route and its parameters', () => {
    expect(table.match('GET', '/organizations/o1/todos/t1')).toEqual({
      kind: 'found',
      target: 'read',
      pattern: '/organizations/:organizationId/todos/:id',
      params: { organizationId: 'o1', id: 't1' },
    });
  });

  it('prefers a static segment over a parameter, and falls back to the parameter elsewhere', () => {
    expect(table.match('GET', '/organizations/o1/todos/search')).toMatchObject({ kind: 'found', target: 'search' });
    expect(table.match('DELETE', '/organizations/o1/todos/search')).toMatchObject({
      kind: 'found',
      target: 'delete',
      params: { id: 'search' },
    });
  });

  it('matches static segments in any letter case and keeps parameters as sent', () => {
    expect(table.match('GET', '/Organizations/AbC/TODOS/XyZ')).toMatchObject({
      kind: 'found',
      target: 'read',
      params: { organizationId: 'AbC', id: 'XyZ' },
    });
  });

  it('percent-decodes parameters', () => {
    expect(table.match('GET', '/organizations/o%201/todos/%C3%A9')).toMatchObject({
      params: { organizationId: 'o 1', id: 'é' },
    });
  });

  it('reports a parameter whose percent-encoding is broken', () => {
    expect(table.match('GET', '/organizations/o1/todos/%E0%A4%A')).toEqual({ kind: 'undecodable' });
  });

  it('ignores one trailing slash and refuses empty parameters', () => {
    expect(table.match('GET', '/organizations/o1/todos/')).toMatchObject({ kind: 'found', target: 'list' });
    expect(table.match('GET', '/organizations//todos')).toEqual({ kind: 'none' });
  });

  it('answers HEAD with the GET route', () => {
    expect(table.match('HEAD', '/organizations/o1/todos/t1')).toMatchObject({ kind: 'found', target: 'read' });
  });

  it('lists the methods a known path allows when the method is not one of them', () => {
    expect(table.match('PATCH', '/organizations/o1/todos')).toEqual({
      kind: 'method_not_allowed',
      allow: ['GET', 'POST'],
    });
  });

  it('finds nothing for an unknown or longer path', () => {
    expect(table.match('GET', '/organizations/o1/notes')).toEqual({ kind: 'none' });
    expect(table.match('GET', '/organizations/o1/todos/t1/extra')).toEqual({ kind: 'none' });
  });

  it('refuses a route declared twice and a parameter named differently at the same place', () => {
    expect(
      () =>
        new RouteTable([
          { method: 'GET', pattern: '/a/:id', target: 1 },
          { method: 'GET', pattern: '/a/:id', target: 2 },
        ]),
    ).toThrow(/declared twice/);
    expect(
      () =>
        new RouteTable([
          { method: 'GET', pattern: '/a/:id', target: 1 },
          { method: 'PUT', pattern: '/a/:key', target: 2 },
        ]),
    ).toThrow(/:key where another route has :id/);
  });
});
