import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorEnvelope, json, stubBackend, type RecordedCall } from '../test-support/fetch-routes';
import { signIn } from '../test-support/fixtures';
import { BudgetsAdminPage } from './budgets-admin.page';

const ORGANIZATIONS = 'POST /api/v1/token-budgets/organizations';
const TOKENS = 'a2a.token_budget.monthly';
const SEATS = 'todos.seats.max';
const ORG_ID = '8a4eec5d-0000-4000-8000-000000000001';

/** The tenant budget the stub answers, with a seats limit `seats` (null: none) and its source. */
function budget(seats: { value: number | null; source: string }) {
  return {
    organizationId: ORG_ID,
    organizationName: 'Analytical Engines',
    plans: ['todos.team'],
    availablePlans: [{ ref: 'todos.team', displayName: 'Todos Team' }],
    features: [
      { featureId: TOKENS, value: 100_000, source: 'plan', grantingProductRefs: ['todos.team'] },
      { featureId: SEATS, grantingProductRefs: [], ...seats },
    ],
    allowance: { value: 100_000, source: 'plan', grantingProductRefs: ['todos.team'] },
    consumedTokens: 0,
    period: '2030-11',
    resetsAt: '2030-12-01T00:00:00.000Z',
    daily: [],
  };
}

describe('plans and budgets page', () => {
  it('picks an organization from the list and overrides a feature other than the token budget', async () => {
    signIn();
    const backend = stubBackend({
      [ORGANIZATIONS]: (call: RecordedCall) =>
        json({
          data: {
            organizations:
              (call.body as { nameContains?: string }).nameContains === 'zzz'
                ? []
                : [
                    { _id: ORG_ID, name: 'Analytical Engines' },
                    { _id: '5b000000-0000-4000-8000-000000000002', name: 'Difference Ltd' },
                  ],
            truncated: false,
          },
        }),
      'POST /api/v1/token-budgets/tenant': json({ data: budget({ value: null, source: 'none' }) }),
      'POST /api/v1/token-budgets/set-override': json({ data: budget({ value: 25, source: 'override' }) }),
      'POST /api/v1/token-budgets/clear-override': json({ data: budget({ value: null, source: 'none' }) }),
    });
    render(<BudgetsAdminPage />);

    const picker = await screen.findByLabelText('Organization');
    expect([...picker.querySelectorAll('option')].map((option) => option.textContent)).toEqual([
      'Analytical Engines (8a4eec5d)',
      'Difference Ltd (5b000000)',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Show budget' }));
    await screen.findByRole('heading', { level: 2, name: 'Analytical Engines' });
    expect(backend.callsTo('POST /api/v1/token-budgets/tenant')[0]?.body).toEqual({ organizationId: ORG_ID });
    const limits = screen.getByRole('list', { name: 'Limits' });
    expect(limits.textContent).toContain('Assistant tokens per month: 100,000 (from todos.team)');
    expect(limits.textContent).toContain(`${SEATS}: no limit (nothing sets it)`);

    // The value's label follows the feature: tokens for the token budget, a plain limit for the others.
    fireEvent.change(screen.getByLabelText('Feature'), { target: { value: SEATS } });
    fireEvent.change(screen.getByLabelText('Limit value'), { target: { value: '25' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set override' }));
    await screen.findByRole('button', { name: `Clear override of ${SEATS}` });
    expect(backend.callsTo('POST /api/v1/token-budgets/set-override')[0]?.body).toEqual({
      organizationId: ORG_ID,
      featureId: SEATS,
      value: 25,
    });
    fireEvent.click(screen.getByRole('button', { name: `Clear override of ${SEATS}` }));
    await screen.findByText(`Override of ${SEATS} cleared.`);
    expect(backend.callsTo('POST /api/v1/token-budgets/clear-override')[0]?.body).toEqual({
      organizationId: ORG_ID,
      featureId: SEATS,
    });

    // The filter narrows the list by name on the server.
    fireEvent.change(screen.getByLabelText('Filter organizations by name'), { target: { value: 'zzz' } });
    await screen.findByText('No organization matches.');
    expect(backend.callsTo(ORGANIZATIONS).at(-1)?.body).toEqual({ nameContains: 'zzz' });
    expect((screen.getByRole('button', { name: 'Show budget' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says so when the list is refused (not an application admin), and offers nothing to pick', async () => {
    signIn();
    stubBackend({
      [ORGANIZATIONS]: errorEnvelope(403, 'FORBIDDEN', 'You are not allowed to perform this operation.', {
        reason: 'role_refused',
      }),
    });
    render(<BudgetsAdminPage />);
    expect((await screen.findByRole('alert')).textContent).toContain('The organizations could not be loaded.');
    expect(screen.queryByLabelText('Organization')).toBeNull();
  });
});
