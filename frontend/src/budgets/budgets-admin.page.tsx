import { useState, type FormEvent } from 'react';
import { budgetOperation, type BudgetOperation, type TenantBudget } from '../api/budgets.client';
import { useDocumentTitle } from '../routing/document-title';
import { FailureAlertOf } from '../ui/failure-alert-of';
import { fieldProblemsOf, LiveStatus, SelectField, TextField, type FieldProblems } from '../ui/form-fields';
import { useAction } from '../ui/use-action';
import { UsageSummary } from './usage-summary';

/** `/admin/budgets`: application admins look an organization up, assign or remove plans and set or clear its override. */
export function BudgetsAdminPage() {
  useDocumentTitle('Plans and budgets');
  const action = useAction();
  const [organizationId, setOrganizationId] = useState('');
  const [budget, setBudget] = useState<TenantBudget | null>(null);
  const [plan, setPlan] = useState('');
  const [value, setValue] = useState('');
  const [expires, setExpires] = useState('');
  const [problems, setProblems] = useState<FieldProblems>({});

  const run = async (operation: BudgetOperation, body: Record<string, unknown>, done: string, summary: string) => {
    const failure = await action.run(summary, async (accessToken) => {
      setBudget(await budgetOperation(operation, body, accessToken));
      return done;
    });
    setProblems(failure ? fieldProblemsOf(failure) : {});
  };

  const lookUp = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBudget(null);
    void run(
      'tenant',
      { organizationId: organizationId.trim() },
      'Budget loaded.',
      'The organization could not be loaded.',
    );
  };
  const tenant = budget?.organizationId ?? '';
  const freePlans = budget?.availablePlans.filter((candidate) => !budget.plans.includes(candidate.ref)) ?? [];
  // The picked plan only while it is still free (an assigned one leaves the list); else the first free one.
  const selectedPlan = freePlans.some((candidate) => candidate.ref === plan) ? plan : (freePlans[0]?.ref ?? '');

  return (
    <section className="panel" aria-labelledby="budgets-title">
      <h1 id="budgets-title" className="page-title">
        Plans and budgets
      </h1>
      <LiveStatus message={action.message} />
      {action.failure ? <FailureAlertOf failure={action.failure} /> : null}
      <form className="form form--inline" aria-label="Find an organization" onSubmit={lookUp}>
        <TextField
          label="Organization id"
          value={organizationId}
          onChange={setOrganizationId}
          error={problems.organizationId}
        />
        <button type="submit" className="button button--primary" disabled={action.busy}>
          Show budget
        </button>
      </form>
      {budget ? (
        <>
          <UsageSummary usage={budget} />
          <h2 className="section-title">Plans</h2>
          {budget.plans.length === 0 ? <p className="muted">No plan.</p> : null}
          <ul className="plain-list">
            {budget.plans.map((ref) => (
              <li key={ref}>
                {budget.availablePlans.find((candidate) => candidate.ref === ref)?.displayName ?? ref}
                <button
                  type="button"
                  className="button button--quiet"
                  disabled={action.busy}
                  onClick={() =>
                    void run(
                      'remove-plan',
                      { organizationId: tenant, productRef: ref },
                      `Plan ${ref} removed.`,
                      'The plan was not removed.',
                    )
                  }
                >
                  Remove plan {ref}
                </button>
              </li>
            ))}
          </ul>
          {freePlans.length ? (
            <form
              className="form form--inline"
              aria-label="Assign a plan"
              onSubmit={(event) => {
                event.preventDefault();
                void run(
                  'assign-plan',
                  { organizationId: tenant, productRef: selectedPlan },
                  `Plan ${selectedPlan} assigned.`,
                  'The plan was not assigned.',
                );
              }}
            >
              <SelectField
                label="Plan"
                value={selectedPlan}
                onChange={setPlan}
                options={freePlans.map((candidate) => [candidate.ref, candidate.displayName] as const)}
                error={problems.productRef}
              />
              <button type="submit" className="button" disabled={action.busy}>
                Assign plan
              </button>
            </form>
          ) : null}
          <h2 className="section-title">Override</h2>
          <form
            className="form"
            noValidate
            aria-label="Set an override"
            onSubmit={(event) => {
              event.preventDefault();
              void run(
                'set-override',
                {
                  organizationId: tenant,
                  value: value.trim() === '' ? Number.NaN : Number(value),
                  ...(expires ? { expiresAt: new Date(`${expires}T23:59:59Z`).toISOString() } : {}),
                },
                'Override set.',
                'The override was not set.',
              );
            }}
          >
            <TextField label="Monthly tokens" type="number" value={value} onChange={setValue} error={problems.value} />
            <TextField
              label="Until (optional, UTC end of day)"
              type="date"
              value={expires}
              onChange={setExpires}
              error={problems.expiresAt}
            />
            <div className="actions">
              <button type="submit" className="button button--primary" disabled={action.busy}>
                Set override
              </button>
              {budget.allowance.source === 'override' ? (
                <button
                  type="button"
                  className="button"
                  disabled={action.busy}
                  onClick={() =>
                    void run(
                      'clear-override',
                      { organizationId: tenant },
                      'Override cleared.',
                      'The override was not cleared.',
                    )
                  }
                >
                  Clear override
                </button>
              ) : null}
            </div>
          </form>
        </>
      ) : null}
    </section>
  );
}
