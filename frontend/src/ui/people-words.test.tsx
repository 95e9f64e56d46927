import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../App';
import { errorEnvelope, json, stubBackend, type Routes } from '../test-support/fetch-routes';
import { handWrittenResourceDescriptions, openAt, signIn, TEST_USER } from '../test-support/fixtures';
import { CONTRACT_VOCABULARY, plainFieldProblem } from './people-words';

// The API's own wording, exactly as the backend writes it (programs read it; pages never show it).
const CONTRACT_MESSAGE = 'The request does not satisfy the operation contract.';
const LAST_ADMIN = 'An organization needs at least one ORG_ADMIN: make another member ORG_ADMIN first.';
const NOT_ALLOWED = 'You are not allowed to perform this operation.';
const ORG = { _id: 'org-1', name: 'Analytical Engines' };

function invalid(problems: Array<{ path: string; expected: string }>) {
  return errorEnvelope(400, 'VALIDATION_FAILED', CONTRACT_MESSAGE, { reason: 'input_invalid', problems });
}

function session(role: string): Routes {
  return {
    'GET /api/v1/auth/me': json({ data: { user: TEST_USER, organizations: [{ ...ORG, role }] } }),
  };
}

/** The members page of org-1 with Ada (an Admin) and Jonas in `jonasRole`. */
function membersPage(jonasRole: string, extra: Routes = {}) {
  signIn();
  openAt('/organizations/org-1');
  stubBackend({
    ...session('ORG_ADMIN'),
    'GET /api/v1/organizations/org-1/members': json({
      data: [
        { userId: TEST_USER._id, email: TEST_USER.email, displayName: 'Ada', role: 'ORG_ADMIN' },
        { userId: 'user-2', email: 'jonas@example.com', displayName: null, role: jonasRole },
      ],
    }),
    'GET /api/v1/organizations/org-1/invitations': json({ data: [] }),
    ...extra,
  });
  render(<App />);
}

/** Everything the page shows a person, alerts and field errors included. */
function shownText(): string {
  return document.body.textContent ?? '';
}

describe('refusals in people’s words', () => {
  it('words every expectation the API states without contract vocabulary', () => {
    const expectations = [
      'required',
      'a string of at least 10 characters',
      'a string of at most 100 characters',
      'a number >= 1',
      'a number <= 5',
      'an email address',
      'an ISO 8601 date-time with offset',
      'one of: "todo", "done"',
      'not writable: read-only field',
      'no undeclared fields',
      'a declared field: title, body',
      'text without NUL characters or unpaired UTF-16 surrogates',
      'a string',
    ];
    for (const expected of expectations) expect(plainFieldProblem(expected)).not.toMatch(CONTRACT_VOCABULARY);
    expect(plainFieldProblem('a string of at least 10 characters')).toBe('Use at least 10 characters.');
    expect(plainFieldProblem('a number <= 5')).toBe('Use a number at most 5.');
  });

  it('refuses “mara” as an email on the sign-up form before anything is sent', async () => {
    openAt('/signup');
    const backend = stubBackend({});
    render(<App />);
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'mara' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'long enough password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Enter an email address like name@example.com.')).toBeTruthy();
    expect(backend.callsTo('POST /api/v1/auth/signup')).toHaveLength(0);
    // The control: a real address goes to the server.
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'mara@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await screen.findByText('Your account was not created.');
    expect(backend.callsTo('POST /api/v1/auth/signup')).toHaveLength(1);
  });

  it('shows the server’s field problems beside the fields, never the contract wording', async () => {
    openAt('/signup');
    stubBackend({
      'POST /api/v1/auth/signup': invalid([
        { path: 'password', expected: 'a string of at least 10 characters' },
        { path: 'displayName', expected: 'a string of at most 100 characters' },
      ]),
    });
    render(<App />);
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'mara@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'long enough password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await screen.findByText('Your account was not created.');
    expect(screen.getAllByText(/Use at most 100 characters\./).length).toBeGreaterThan(0);
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('true');
    expect(shownText()).not.toMatch(CONTRACT_VOCABULARY);
  });

  it('names roles by display name in a refusal (the last-admin rule says Admin, not ORG_ADMIN)', async () => {
    membersPage('ORG_ADMIN', {
      'DELETE /api/v1/organizations/org-1/members/user-2': errorEnvelope(409, 'CONFLICT', LAST_ADMIN),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Remove jonas@example.com' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, remove jonas@example.com' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(/needs at least one Admin/)).toBeTruthy();
    expect(shownText()).not.toMatch(CONTRACT_VOCABULARY);
  });

  it('says the last-admin rule before the click: the only Admin is not offered Leave', async () => {
    membersPage('ORG_MEMBER');
    expect(await screen.findByText(/You are the only Admin of Analytical Engines/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Leave organization' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove jonas@example.com' })).toBeTruthy();
  });

  it('offers a member no Delete, and names the role needed when a change is refused', async () => {
    signIn();
    openAt('/organizations/org-1/documents');
    stubBackend({
      ...handWrittenResourceDescriptions(),
      ...session('ORG_MEMBER'),
      'GET /api/v1/organizations/org-1/knowledge-documents?limit=5': json({
        data: [{ _id: 'doc-1', title: 'Expense policy', body: 'Meals up to 40 EUR.' }],
        nextCursor: null,
      }),
      'POST /api/v1/organizations/org-1/knowledge-documents': errorEnvelope(403, 'FORBIDDEN', NOT_ALLOWED, {
        reason: 'role_refused',
      }),
    });
    render(<App />);
    await screen.findByRole('heading', { name: 'Expense policy' });
    expect(screen.queryByRole('button', { name: /Delete/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Edit/ })).toBeNull();
    expect(screen.getByText(/needs the Manager role/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Travel policy' } });
    fireEvent.click(screen.getByRole('button', { name: /Create/ }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(/Your role does not allow this/)).toBeTruthy();
    expect(shownText()).not.toMatch(CONTRACT_VOCABULARY);
  });
});
