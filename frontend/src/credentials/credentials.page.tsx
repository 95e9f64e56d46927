import { dateText } from '../ui/dates';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/api.client';
import { callApi, listRecords, textOf, writeRecord, type ApiRecord } from '../api/rest.client';
import { stepUp } from '../api/step-up.client';
import { atLeast, roleName, rolesWithin } from '../organizations/roles';
import { FailureAlert, LoadingStatus } from '../page-states';
import { useDocumentTitle } from '../routing/document-title';
import { FailureAlertOf } from '../ui/failure-alert-of';
import { fieldProblemsOf, LiveStatus, TextAreaField, TextField, type FieldProblems } from '../ui/form-fields';
import { useAction } from '../ui/use-action';
import { useSignedInData } from '../ui/use-signed-in-data';
import { localDateTimeInDays, type CredentialKind } from './credential-kinds';
import { OneTimeSecret } from './one-time-secret';

/** Where a credentials page works: its API path, the caller's role there, and the scope's roles. */
export interface CredentialScope {
  /** `/api/v1/organizations/:id` or `/api/v1` (application scope). */
  apiBase: string;
  /** The caller's role in the scope (their ceiling). */
  callerRole: string | null;
  /** The scope's roles, highest first. */
  roleScale: readonly string[];
  /** The lowest role that manages this kind of credential in the scope. */
  managerRole: string;
  /** What the heading says the scope is. */
  scopeLabel: string;
}

function secretOf(record: ApiRecord, field: string): string | null {
  const value = record[field];
  return typeof value === 'string' ? value : null;
}

/**
 * API keys or OAuth clients of an organization or of the application: list, create (the secret shown once),
 * regenerate, rotate with step-up and a cutoff, delete. Roles are offered only up to the caller's own.
 */
export function CredentialsPage({ kind, scope }: { kind: CredentialKind; scope: CredentialScope }) {
  useDocumentTitle(`${kind.title} · ${scope.scopeLabel}`);
  const base = `${scope.apiBase}/${kind.segment}`;
  const list = useSignedInData(base, (accessToken, signal) => listRecords(base, {}, { accessToken, signal }));
  const action = useAction();
  const [secret, setSecret] = useState<string | null>(null);
  const offered = rolesWithin(scope.callerRole, scope.roleScale);
  const mayManage = atLeast(scope.callerRole, scope.managerRole, scope.roleScale);

  const runWithSecret = (summary: string, done: string, call: (accessToken: string) => Promise<ApiRecord>) =>
    action
      .run(summary, async (accessToken) => {
        const record = await call(accessToken);
        setSecret(secretOf(record, kind.secretField));
        return done;
      })
      .then((failure) => {
        list.reload();
        return failure;
      });

  return (
    <section className="panel" aria-labelledby="credentials-title">
      <h1 id="credentials-title" className="page-title">
        {kind.title}
        <span className="muted page-title__scope"> · {scope.scopeLabel}</span>
      </h1>
      <LiveStatus message={action.message} />
      {action.failure ? <FailureAlertOf failure={action.failure} /> : null}
      {secret ? <OneTimeSecret label={kind.secretLabel} value={secret} onDone={() => setSecret(null)} /> : null}
      {list.state.kind === 'loading' ? (
        <LoadingStatus>Loading {kind.title}…</LoadingStatus>
      ) : list.state.kind === 'error' ? (
        <FailureAlert summary={`You cannot see the ${kind.title} here.`} message={list.state.message} />
      ) : (
        <>
          {list.state.data.records.length === 0 ? <p className="empty muted">No {kind.title} yet.</p> : null}
          <ul className="grant-list" aria-label={kind.title}>
            {list.state.data.records.map((record) => (
              <CredentialItem
                key={record._id}
                kind={kind}
                record={record}
                base={base}
                // The server refuses to re-mint or delete a credential above the caller's role: not offered.
                manageable={mayManage && roleList(record).every((role) => offered.includes(role))}
                busy={action.busy}
                runWithSecret={runWithSecret}
                onDelete={() =>
                  void action
                    .run(`The ${kind.singular} was not deleted.`, async (accessToken) => {
                      await callApi('DELETE', `${base}/${encodeURIComponent(record._id)}`, { accessToken });
                      return `${kind.singular} “${textOf(record[kind.nameField], record._id)}” deleted.`;
                    })
                    .then(list.reload)
                }
              />
            ))}
          </ul>
          {mayManage ? (
            <CreateCredentialForm
              kind={kind}
              offered={offered}
              busy={action.busy}
              onCreate={(body) =>
                runWithSecret(
                  `The ${kind.singular} was not created.`,
                  `${kind.singular} “${textOf(body[kind.nameField])}” created.`,
                  (accessToken) => writeRecord('POST', base, body, { accessToken }),
                )
              }
            />
          ) : null}
        </>
      )}
    </section>
  );
}

function roleList(record: ApiRecord): string[] {
  return Array.isArray(record.roles) ? record.roles.map(String) : [];
}

function CredentialItem({
  kind,
  record,
  base,
  manageable,
  busy,
  runWithSecret,
  onDelete,
}: {
  kind: CredentialKind;
  record: ApiRecord;
  base: string;
  manageable: boolean;
  busy: boolean;
  runWithSecret: (summary: string, done: string, call: (accessToken: string) => Promise<ApiRecord>) => Promise<unknown>;
  onDelete: () => void;
}) {
  const name = textOf(record[kind.nameField], record._id);
  const [mode, setMode] = useState<'idle' | 'rotate' | 'delete'>('idle');
  const roles = roleList(record);
  const path = `${base}/${encodeURIComponent(record._id)}`;
  const expires = dateText(record.expiresAt);
  const retires = dateText(record.invalidationDate);
  // A rotated-out credential (it has a cutoff) keeps working until then; rotating or regenerating it again would
  // make no sense, so only deleting it early is offered.
  const rotatedOut = retires !== null;
  return (
    <li className={rotatedOut ? 'record record--retired' : 'record'}>
      <h2 className="record__title">
        {name}
        {rotatedOut ? <span className="badge"> Rotated out</span> : null}
      </h2>
      <dl className="facts">
        <div className="facts__row">
          <dt>Prefix</dt>
          <dd>
            <code>{textOf(record[kind.prefixField], '—')}</code>
          </dd>
        </div>
        <div className="facts__row">
          <dt>Roles</dt>
          <dd>{roles.length ? roles.map(roleName).join(', ') : 'None'}</dd>
        </div>
        <div className="facts__row">
          <dt>Expires</dt>
          <dd>{expires ?? 'Never'}</dd>
        </div>
        {retires ? (
          <div className="facts__row">
            <dt>Stops working</dt>
            <dd>{retires}</dd>
          </div>
        ) : null}
      </dl>
      {!manageable ? (
        <p className="muted">
          It holds a role above yours: only someone holding that role can regenerate, rotate or delete it.
        </p>
      ) : rotatedOut ? (
        <>
          <p className="muted">Replaced by a newer secret: it stops working on {retires}. You can delete it sooner.</p>
          <div className="actions">
            <DeleteControl
              name={`${name} (rotated out)`}
              busy={busy}
              mode={mode}
              setMode={setMode}
              onDelete={onDelete}
            />
          </div>
        </>
      ) : mode === 'rotate' ? (
        <RotateForm
          name={name}
          busy={busy}
          onCancel={() => setMode('idle')}
          onRotate={(password, cutoff) =>
            runWithSecret(
              `${name} was not rotated.`,
              `${name} rotated; the old secret stops at the cutoff.`,
              async (accessToken) => {
                const reAuthToken = await stepUp(password, accessToken);
                return writeRecord(
                  'PUT',
                  `${path}/rotate`,
                  { oldKeyInvalidationDate: cutoff },
                  { accessToken, reAuthToken },
                );
              },
            ).then((failure) => {
              if (!failure) setMode('idle');
              return failure;
            })
          }
        />
      ) : (
        <div className="actions">
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() =>
              void runWithSecret(`${name} was not regenerated.`, `${name} regenerated.`, (accessToken) =>
                writeRecord('POST', `${path}/regenerate`, {}, { accessToken }),
              )
            }
          >
            Regenerate {name}
          </button>
          <button type="button" className="button" onClick={() => setMode('rotate')}>
            Rotate {name}
          </button>
          <DeleteControl name={name} busy={busy} mode={mode} setMode={setMode} onDelete={onDelete} />
        </div>
      )}
    </li>
  );
}

/** Delete, then "Yes, delete" and "Keep" once asked. */
function DeleteControl({
  name,
  busy,
  mode,
  setMode,
  onDelete,
}: {
  name: string;
  busy: boolean;
  mode: 'idle' | 'rotate' | 'delete';
  setMode: (mode: 'idle' | 'rotate' | 'delete') => void;
  onDelete: () => void;
}) {
  return mode === 'delete' ? (
    <>
      <button type="button" className="button button--danger" disabled={busy} onClick={onDelete}>
        Yes, delete {name}
      </button>
      <button type="button" className="button" onClick={() => setMode('idle')}>
        Keep {name}
      </button>
    </>
  ) : (
    <button type="button" className="button" onClick={() => setMode('delete')}>
      Delete {name}
    </button>
  );
}

function RotateForm({
  name,
  busy,
  onRotate,
  onCancel,
}: {
  name: string;
  busy: boolean;
  onRotate: (password: string, cutoff: string) => Promise<unknown>;
  onCancel: () => void;
}) {
  const [password, setPassword] = useState('');
  const [cutoff, setCutoff] = useState(() => localDateTimeInDays(1));
  const [problems, setProblems] = useState<FieldProblems>({});
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const local: FieldProblems = {};
    if (!password) local.password = 'Enter your password to confirm it is you.';
    const at = new Date(cutoff);
    if (Number.isNaN(at.getTime())) local.oldKeyInvalidationDate = 'Choose when the old secret stops working.';
    let found = local;
    if (Object.keys(local).length === 0) {
      const failure = await onRotate(password, at.toISOString());
      found = failure instanceof ApiError ? fieldProblemsOf(failure) : {};
      setPassword('');
    }
    setProblems(found);
    if (Object.keys(found).length)
      requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  };
  return (
    <form className="form" noValidate aria-label={`Rotate ${name}`} onSubmit={(event) => void submit(event)}>
      <p className="muted">
        Rotating issues a new secret. Confirm with your password; the old secret keeps working until the cutoff.
      </p>
      <TextField
        label="Your password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        error={problems.password}
      />
      <TextField
        label="Old secret stops working at"
        type="datetime-local"
        value={cutoff}
        onChange={setCutoff}
        hint="Between now and 90 days ahead, in your local time."
        error={problems.oldKeyInvalidationDate}
      />
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          Confirm rotation
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function CreateCredentialForm({
  kind,
  offered,
  busy,
  onCreate,
}: {
  kind: CredentialKind;
  offered: string[];
  busy: boolean;
  onCreate: (body: Record<string, unknown>) => Promise<unknown>;
}) {
  const [name, setName] = useState('');
  const [roles, setRoles] = useState<string[]>(offered.slice(-1));
  const [expires, setExpires] = useState('');
  const [grantTypes, setGrantTypes] = useState<string[]>(['client_credentials']);
  const [redirectUris, setRedirectUris] = useState('');
  const [problems, setProblems] = useState<FieldProblems>({});
  const isKey = kind.segment === 'api-keys';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const body: Record<string, unknown> = { [kind.nameField]: name.trim(), roles };
    if (isKey && expires) body.expiresAt = new Date(`${expires}T23:59:59Z`).toISOString();
    if (!isKey) {
      body.grantTypes = grantTypes;
      body.redirectUris = redirectUris
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
    }
    const failure = await onCreate(body);
    const found = failure ? fieldProblemsOf(failure) : {};
    setProblems(found);
    if (!failure) setName('');
    if (Object.keys(found).length)
      requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  };
  const toggle = (list: string[], value: string, on: boolean) =>
    on ? [...list.filter((item) => item !== value), value] : list.filter((item) => item !== value);

  return (
    <form className="form" noValidate aria-label={`Create ${kind.singular}`} onSubmit={(event) => void submit(event)}>
      <h2 className="section-title">Create {kind.singular}</h2>
      <TextField label="Name" value={name} onChange={setName} error={problems[kind.nameField]} />
      <fieldset className="fieldset" aria-describedby={problems.roles ? 'create-roles-error' : undefined}>
        <legend>Roles (up to your own)</legend>
        {offered.map((role) => (
          <label key={role} className="checkbox__control">
            <input
              type="checkbox"
              checked={roles.includes(role)}
              onChange={(event) => setRoles((current) => toggle(current, role, event.target.checked))}
            />
            {roleName(role)}
          </label>
        ))}
        {problems.roles ? (
          <p id="create-roles-error" className="field__error">
            {problems.roles}
          </p>
        ) : null}
      </fieldset>
      {isKey ? (
        <TextField
          label="Expires on (optional, UTC end of day)"
          type="date"
          value={expires}
          onChange={setExpires}
          error={problems.expiresAt}
        />
      ) : (
        <>
          <fieldset className="fieldset">
            <legend>Grant types</legend>
            {(['client_credentials', 'authorization_code'] as const).map((grant) => (
              <label key={grant} className="checkbox__control">
                <input
                  type="checkbox"
                  checked={grantTypes.includes(grant)}
                  onChange={(event) => setGrantTypes((current) => toggle(current, grant, event.target.checked))}
                />
                {grant}
              </label>
            ))}
          </fieldset>
          <TextAreaField
            label="Redirect URIs (one per line)"
            value={redirectUris}
            onChange={setRedirectUris}
            error={problems.redirectUris}
          />
        </>
      )}
      <button type="submit" className="button button--primary" disabled={busy}>
        Create {kind.singular}
      </button>
    </form>
  );
}
