import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ResourceDescription } from '@wildo/shared-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { DeclaredRecordsPage } from '@wildo-ai/saas-frontend-lib';
import { json, stubBackend } from '../test-support/fetch-routes';
import { signIn } from '../test-support/fixtures';

const PATH = '/api/v1/organizations/org-1/notes';

/** A description as the backend serves it, for a person whose role may create, read and list, but not delete. */
function notes(deleteAllowed: boolean, withSearch = false): ResourceDescription {
  const operation = (name: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', allowed = true) => ({
    operation: name,
    kind: 'core' as const,
    displayName: name,
    target: name === 'create' || name === 'list' ? ('collection' as const) : ('instance' as const),
    effect: (method === 'GET'
      ? 'read'
      : method === 'DELETE'
        ? 'destructive'
        : 'write') as ResourceDescription['operations'][number]['effect'],
    method,
    path: name === 'create' || name === 'list' ? PATH : `${PATH}/:id`,
    allowed,
    ...(allowed ? {} : { refusal: 'role_refused' }),
    requiresReauthentication: false,
    onlyOwnRecords: false,
    lifecycle: 'stable' as const,
  });
  return {
    type: 'notes',
    displayName: 'Notes',
    singular: 'note',
    module: 'notebook',
    builtIn: false,
    path: PATH,
    recordSchema: { type: 'object', properties: { _id: { type: 'string' }, title: { type: 'string' } } },
    readOnlyFields: ['_id'],
    filters: withSearch
      ? [
          {
            name: 'status',
            displayName: 'Status',
            schema: { type: 'string', enum: ['open', 'done'] },
            nullable: false,
          },
          { name: 'owner', displayName: 'Owner', schema: { type: 'string' }, nullable: false },
        ]
      : [],
    sort: { order: 'newest_first' },
    pageSize: { default: 20, max: 100 },
    operations: [
      {
        ...operation('create', 'POST'),
        inputSchema: {
          type: 'object',
          properties: { title: { type: 'string', minLength: 1, maxLength: 80 } },
          required: ['title'],
        },
      },
      operation('list', 'GET'),
      operation('delete', 'DELETE', deleteAllowed),
      ...(withSearch
        ? [
            {
              ...operation('search', 'POST'),
              target: 'collection' as const,
              effect: 'read' as const,
              path: `${PATH}/search`,
              inputSchema: {
                type: 'object',
                properties: {
                  query: { type: 'string' },
                  filters: { type: 'object', properties: { status: { type: 'string', enum: ['open', 'done'] } } },
                },
                required: ['query'],
              },
            },
          ]
        : []),
    ],
  };
}

afterEach(cleanup);

describe('DeclaredRecordsPage (as a consumer of the component library imports it)', () => {
  it('offers delete only when the description allows it, and checks a value before sending it', async () => {
    signIn();
    const backend = stubBackend({
      [`GET ${PATH}?limit=10`]: json({ data: [{ _id: 'n1', title: 'First' }], nextCursor: null }),
    });
    const { unmount } = render(<DeclaredRecordsPage description={notes(false)} />);
    await screen.findByRole('heading', { level: 2, name: 'First' });
    expect(screen.queryByRole('button', { name: 'Delete First' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Create note' }));
    expect(await screen.findByText('Enter a title.')).toBeDefined();
    expect(backend.callsTo(`POST ${PATH}`)).toEqual([]);
    unmount();

    render(<DeclaredRecordsPage description={notes(true)} />);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Delete First' })).toBeDefined());
  });

  it('searches with the words and the filters SEARCH declares, as JSON in its body', async () => {
    signIn();
    const backend = stubBackend({
      [`GET ${PATH}?limit=10`]: json({ data: [{ _id: 'n1', title: 'First' }], nextCursor: null }),
      [`POST ${PATH}/search`]: json({ data: [{ _id: 'n2', title: 'Found' }], nextCursor: null }),
    });
    render(<DeclaredRecordsPage description={notes(false, true)} />);
    await screen.findByRole('heading', { level: 2, name: 'First' });
    fireEvent.change(screen.getByLabelText('Words'), { target: { value: ' milk ' } });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'open' } });
    fireEvent.change(screen.getByLabelText('Owner'), { target: { value: 'ada' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByRole('heading', { level: 2, name: 'Found' });
    // `owner` is a LIST filter only: SEARCH would refuse it, so it is not sent there.
    expect(backend.callsTo(`POST ${PATH}/search`).map((call) => call.body)).toEqual([
      { query: 'milk', limit: 10, filters: { status: 'open' } },
    ]);
  });
});
