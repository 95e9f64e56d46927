import { useState, type FormEvent } from 'react';
import {
  budgetOperation,
  listOrganizationChoices,
  type BudgetOperation,
  type TenantBudget,
} from '../api/budgets.client';
import { FailureAlert, LoadingStatus } from '../page-states';
import { useDocumentTitle } from '../routing/document-title';
import { FailureAlertOf } from '../ui/failure-alert-of';
import { fieldProblemsOf, LiveStatus, SelectField, TextField, type FieldProblems } from '../ui/form-fields';
import { useAction } from '../ui/use-action';
import { useSignedInData } from '../ui/use-signed-in-data';
import { UsageSummary } from './usage-summary';

/** The token budget's feature id (`A2A_TOKEN_BUDGET_FEATURE_ID`; the bundle does not import the shared library's values). */
const TOKEN_FEATURE = 'a2a.token_budget.monthly';

const numberFormat = new Intl.NumberFormat('en');

/** A feature as the page names it: the token budget in words, any other by its catalogue id. */
function featureLabel(featureId: string): string {
  return featureId === TOKEN_FEATURE ? 'Assistant tokens per month' : featureId;
}

type FeatureLimit = TenantBudget['features'][number];

function sourceText(limit: FeatureLimit): string {
  switch (limit.source) {
    case 'override':
      return limit.overrideExpiresAt
        ? `manual override until ${new Date(limit.overrideExpiresAt).toUTCString()}`
        : 'manual override';
    case 'plan':
      return `from ${limit.grantingProductRefs.join(', ')}`;
    case 'profile':
      return 'default for organizations';
    default:
      return 'nothing sets it';
  }
}

/**
 * `/admin/budgets`: application admins pick an organization (listed by name, filterable), assign or remove
 * plans, and set or clear its override of each budgeted feature.
 */
export function BudgetsAdminPage() {
  useDocumentTitle('Plans and budgets');
  const action = useAction();
  const [nameFilter, setNameFilter] = useState('');
  const choices = useSignedInData(`budget-organizations:${nameFilter.trim()}`, (accessToken, signal) =>
    listOrganizationChoices(nameFilter, accessToken, signal),
  );
  const [picked, setPicked] = useState('');
  const [budget, setBudget] = useState<TenantBudget | null>(null);
  const [plan, setPlan] = useState('');
  const [feature, setFeature] = useState(TOKEN_FEATURE);
  const [value, setValue] = useState('');
  const [expires, setExpires] = useState('');
  const [problems, setProblems] = useState<FieldProblems>({});

  const listed = choices.state.kind === 'ready' ? choices.state.data.organizations : [];
  // The picked organization while the filter still lists it; else the first listed.
  const organizationId = listed.some((choice) => choice._id === picked) ? picked : (listed[0]?._id ?? '');

  const run = async (operation: BudgetOperation, body: Record<string, unknown>, done: string, summary: string) => {
    const failure = await action.run(summary, async (accessToken) => {
      setBudget(await budgetOperation(operation, body, accessToken));
      return done;
    });
    setProblems(failure ? fieldProblemsOf(failure) : {});
  };

  /** A quiet button that runs one operation on the organization shown. */
  const operationButton = (label: string, ...operation: Parameters<typeof run>) => (
    <button
      type="button"
      className="button button--quiet"
      disabled={action.busy}
      onClick={() => void run(...operation)}
    >
      {label}
    </button>
  );

  const lookUp = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBudget(null);
    void run('tenant', { organizationId }, 'Budget loaded.', 'The organization could not be loaded.');
  };
  const tenant = budget?.organizationId ?? '';
  const freePlans = budget?.availablePlans.filter((candidate) => !budget.plans.includes(candidate.ref)) ?? [];
  // The picked plan only while it is still free (an assigned one leaves the list); else the first free one.
  const selectedPlan = freePlans.some((candidate) => candidate.ref === plan) ? plan : (freePlans[0]?.ref ?? '');
  const features = budget?.features ?? [];
  const selectedFeature = features.some((limit) => limit.featureId === feature)
    ? feature
    : (features[0]?.featureId ?? TOKEN_FEATURE);

  return (
    <section className="panel" aria-labelledby="budgets-title">
      <h1 id="budgets-title" className="page-title">
        Plans and budgets
      </h1>
      <LiveStatus message={action.message} />
      {action.failure ? <FailureAlertOf failure={action.failure} /> : null}
      {choices.state.kind === 'error' ? (
        <FailureAlert summary="The organizations could not be loaded." message={choices.state.message} />
      ) : (
        <form className="form" aria-label="Find an organization" onSubmit={lookUp}>
          <TextField
            label="Filter organizations by name"
            value={nameFilter}
            onChange={setNameFilter}
            {...(choices.state.kind === 'ready' && choices.state.data.truncated
              ? { hint: 'Only the first 200 are listed: type part of a name to narrow them.' }
              : {})}
          />
          {choices.state.kind === 'loading' ? (
            <LoadingStatus>Loading organizations…</LoadingStatus>
          ) : listed.length === 0 ? (
            <p className="muted">No organization matches.</p>
          ) : (
            <SelectField
              label="Organization"
              value={organizationId}
              onChange={setPicked}
              // The id's start tells apart organizations of the same name.
              options={listed.map((choice) => [choice._id, `${choice.name} (${choice._id.slice(0, 8)})`] as const)}
              error={problems.organizationId}
            />
          )}
          <div className="actions">
            <button type="submit" className="button button--primary" disabled={action.busy || organizationId === ''}>
              Show budget
            </button>
          </div>
        </form>
      )}
      {budget ? (
        <>
          <h2 className="section-title">{budget.organizationName}</h2>
          <UsageSummary usage={budget} headingLevel={3} />
          <h3 className="subsection-title">Plans</h3>
          {budget.plans.length === 0 ? <p className="muted">No plan.</p> : null}
          <ul className="plain-list">
            {budget.plans.map((ref) => (
              <li key={ref}>
                {budget.availablePlans.find((candidate) => candidate.ref === ref)?.displayName ?? ref}
                {operationButton(
                  `Remove plan ${ref}`,
                  'remove-plan',
                  { organizationId: tenant, productRef: ref },
                  `Plan ${ref} removed.`,
                  'The plan was not removed.',
                )}
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
          <h3 className="subsection-title">Limits</h3>
          <ul className="plain-list" aria-label="Limits">
            {features.map((limit) => (
              <li key={limit.featureId}>
                <strong>{featureLabel(limit.featureId)}</strong>:{' '}
                {limit.value === null ? 'no limit' : numberFormat.format(limit.value)} ({sourceText(limit)})
                {limit.source === 'override'
                  ? operationButton(
                      `Clear override of ${featureLabel(limit.featureId)}`,
                      'clear-override',
                      { organizationId: tenant, featureId: limit.featureId },
                      `Override of ${featureLabel(limit.featureId)} cleared.`,
                      'The override was not cleared.',
                    )
                  : null}
              </li>
            ))}
          </ul>
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
                  featureId: selectedFeature,
                  value: value.trim() === '' ? Number.NaN : Number(value),
                  ...(expires ? { expiresAt: new Date(`${expires}T23:59:59Z`).toISOString() } : {}),
                },
                `Override of ${featureLabel(selectedFeature)} set.`,
                'The override was not set.',
              );
            }}
          >
            <SelectField
              label="Feature"
              value={selectedFeature}
              onChange={setFeature}
              options={features.map((limit) => [limit.featureId, featureLabel(limit.featureId)] as const)}
              error={problems.featureId}
            />
            <TextField
              label={selectedFeature === TOKEN_FEATURE ? 'Monthly tokens' : 'Limit value'}
              type="number"
              value={value}
              onChange={setValue}
              error={problems.value}
            />
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
            </div>
          </form>
        </>
      ) : null}
    </section>
  );
}
