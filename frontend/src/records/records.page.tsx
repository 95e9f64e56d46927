import { useState, type ReactNode } from 'react';
import { callApi, listRecords, textOf, writeRecord, type ApiRecord } from '../api/rest.client';
import { FailureAlert, LoadingStatus } from '../page-states';
import { atLeast, roleName } from '../organizations/roles';
import { useDocumentTitle } from '../routing/document-title';
import { FailureAlertOf } from '../ui/failure-alert-of';
import { LiveStatus, SelectField, TextField } from '../ui/form-fields';
import { PageNavigation } from '../ui/page-navigation';
import { useAction } from '../ui/use-action';
import { useSignedInData } from '../ui/use-signed-in-data';
import { RecordForm } from './record-form';
import type { RecordKind } from './record-kinds';

const PAGE_SIZE = 5;

/**
 * An organization's records of one resource: the LIST with its declared filters and cursor pagination,
 * a create form, and edit and delete on each record.
 */
export function RecordsPage({
  organizationId,
  kind,
  callerRole = null,
  recordExtras,
}: {
  organizationId: string;
  kind: RecordKind;
  /** The person's role in the organization: edit and delete are offered only when it allows them. */
  callerRole?: string | null;
  /** What a page adds under each record (the knowledge documents' attached file), given the record's URL. */
  recordExtras?: (record: ApiRecord, recordUrl: string) => ReactNode;
}) {
  useDocumentTitle(kind.title);
  const mayUpdate = atLeast(callerRole, kind.roles.update);
  const mayDelete = atLeast(callerRole, kind.roles.delete);
  const base = `/api/v1/organizations/${encodeURIComponent(organizationId)}/${kind.segment}`;
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [applied, setApplied] = useState<Record<string, string>>({});
  // Cursors of the pages before the current one, and the current one's (`undefined` = first page).
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const list = useSignedInData(`${base}?${JSON.stringify(applied)}&${cursor ?? ''}`, (accessToken, signal) =>
    listRecords(base, { ...applied, limit: String(PAGE_SIZE), cursor }, { accessToken, signal }),
  );
  const nextCursor = list.state.kind === 'ready' ? list.state.data.nextCursor : null;
  const action = useAction();
  const [editing, setEditing] = useState<ApiRecord | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);

  const save = async (body: Record<string, unknown>, record: ApiRecord | null) => {
    const failure = await action.run(
      record ? `The ${kind.singular} was not saved.` : `The ${kind.singular} was not created.`,
      async (accessToken) => {
        const saved = record
          ? await writeRecord('PUT', `${base}/${encodeURIComponent(record._id)}`, body, { accessToken })
          : await writeRecord('POST', base, body, { accessToken });
        return `${kind.singular[0]?.toUpperCase()}${kind.singular.slice(1)} “${textOf(saved.title, saved._id)}” ${record ? 'saved' : 'created'}.`;
      },
      record ? { requiredRole: kind.roles.update } : {},
    );
    if (!failure) {
      setEditing(null);
      list.reload();
    }
    return failure;
  };

  const remove = (record: ApiRecord) =>
    void action
      .run(
        `The ${kind.singular} was not deleted.`,
        async (accessToken) => {
          await callApi('DELETE', `${base}/${encodeURIComponent(record._id)}`, { accessToken });
          return `${kind.singular[0]?.toUpperCase()}${kind.singular.slice(1)} “${textOf(record.title, record._id)}” deleted.`;
        },
        { requiredRole: kind.roles.delete },
      )
      .then(() => {
        setConfirmDelete(null);
        list.reload();
      });

  return (
    <section className="panel" aria-labelledby="records-title">
      <h1 id="records-title" className="page-title">
        {kind.title}
      </h1>
      <LiveStatus message={action.message} />
      {action.failure ? <FailureAlertOf failure={action.failure} /> : null}
      {callerRole && !mayDelete ? (
        <p className="muted">
          {mayUpdate ? 'Deleting' : 'Changing and deleting'} {kind.title.toLowerCase()} needs the{' '}
          {roleName(kind.roles.delete)} role.
        </p>
      ) : null}
      {kind.filters.length > 0 ? (
        <form
          className="form form--inline"
          aria-label={`Filter ${kind.title.toLowerCase()}`}
          onSubmit={(event) => {
            event.preventDefault();
            setApplied(filters);
            setCursors([undefined]);
          }}
        >
          {kind.filters.map((filter) =>
            filter.options ? (
              <SelectField
                key={filter.name}
                label={filter.label}
                value={filters[filter.name] ?? ''}
                onChange={(value) => setFilters((current) => ({ ...current, [filter.name]: value }))}
                options={filter.options}
              />
            ) : (
              <TextField
                key={filter.name}
                label={filter.label}
                value={filters[filter.name] ?? ''}
                onChange={(value) => setFilters((current) => ({ ...current, [filter.name]: value }))}
              />
            ),
          )}
          <button type="submit" className="button">
            Apply filters
          </button>
        </form>
      ) : null}
      {list.state.kind === 'loading' ? (
        <LoadingStatus>Loading {kind.title.toLowerCase()}…</LoadingStatus>
      ) : list.state.kind === 'error' ? (
        <FailureAlert
          summary={`The ${kind.title.toLowerCase()} could not be loaded.`}
          message={list.state.message}
          onRetry={list.reload}
        />
      ) : list.state.data.records.length === 0 ? (
        <p className="empty muted">No {kind.title.toLowerCase()} here.</p>
      ) : (
        <ul className="grant-list" aria-label={kind.title}>
          {list.state.data.records.map((record) => {
            const title = textOf(record.title, record._id);
            return (
              <li key={record._id} className="record">
                <h2 className="record__title">{title}</h2>
                <p className="muted">{kind.summary(record)}</p>
                {recordExtras?.(record, `${base}/${encodeURIComponent(record._id)}`)}
                {editing?._id === record._id ? (
                  <RecordForm
                    kind={kind}
                    record={record}
                    busy={action.busy}
                    onSubmit={(body) => save(body, record)}
                    onCancel={() => setEditing(null)}
                  />
                ) : (
                  <div className="actions">
                    {mayUpdate ? (
                      <button type="button" className="button" onClick={() => setEditing(record)}>
                        Edit {title}
                      </button>
                    ) : null}
                    {!mayDelete ? null : confirmDelete === record._id ? (
                      <>
                        <button
                          type="button"
                          className="button button--danger"
                          disabled={action.busy}
                          onClick={() => remove(record)}
                        >
                          Yes, delete {title}
                        </button>
                        <button type="button" className="button" onClick={() => setConfirmDelete(null)}>
                          Keep it
                        </button>
                      </>
                    ) : (
                      <button type="button" className="button" onClick={() => setConfirmDelete(record._id)}>
                        Delete {title}
                      </button>
                    )}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <PageNavigation cursors={cursors} setCursors={setCursors} nextCursor={nextCursor} />
      <RecordForm kind={kind} record={null} busy={action.busy} onSubmit={(body) => save(body, null)} />
    </section>
  );
}
