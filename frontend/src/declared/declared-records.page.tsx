import type { ResourceDescription, ResourceOperationDescription } from '@wildo/shared-lib';
import { useMemo, useState } from 'react';
import { callApi, listRecords, searchRecords, type ApiRecord } from '../api/rest.client';
import { FailureAlert, LoadingStatus } from '../page-states';
import { useDocumentTitle } from '../routing/document-title';
import { FailureAlertOf } from '../ui/failure-alert-of';
import { LiveStatus, TextField } from '../ui/form-fields';
import { PageNavigation } from '../ui/page-navigation';
import { useAction } from '../ui/use-action';
import { useSignedInData } from '../ui/use-signed-in-data';
import { capitalized, factsOf, recordName, valueInWords } from './record-display';
import { fieldsOf, filterFieldOf, jsonValueOf, type SchemaField } from './schema-fields';
import { SchemaFieldControl, SchemaForm } from './schema-form';

/** Records per page of a generated list (the declared default when smaller). */
const PAGE_SIZE = 10;

/** An operation this person may run from a page (one needing re-authentication is left to the API). */
function offered(description: ResourceDescription, name: string): ResourceOperationDescription | undefined {
  const operation = description.operations.find((candidate) => candidate.operation === name);
  return operation?.allowed && !operation.requiresReauthentication ? operation : undefined;
}

const instancePath = (operation: ResourceOperationDescription, id: string) =>
  operation.path.replace(':id', encodeURIComponent(id));

const needsConfirmation = (operation: ResourceOperationDescription) =>
  operation.effect === 'destructive' || operation.effect === 'irreversible';

/** The filters a SEARCH operation's body accepts (`filters.properties` of its input schema). */
function searchFilterNames(operation: ResourceOperationDescription): Set<string> {
  const filters = (operation.inputSchema?.properties as Record<string, { properties?: object }> | undefined)?.filters;
  return new Set(Object.keys(filters?.properties ?? {}));
}

/** What a custom operation answered, as facts (`[label, value]`) when it is an object of plain values. */
function answerFacts(data: unknown): Array<[string, string]> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return [];
  return Object.entries(data as Record<string, unknown>).flatMap(([key, value]): Array<[string, string]> => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return Object.entries(value as Record<string, unknown>).flatMap(([inner, innerValue]) => {
        const text = valueInWords(innerValue);
        return text === undefined ? [] : [[`${key} ${inner}`.replace(/_/g, ' '), text]];
      });
    const text = valueInWords(value);
    return text === undefined ? [] : [[key.replace(/_/g, ' '), text]];
  });
}

/**
 * The page of a declared resource, generated from its description: the list with its declared filters, create and
 * edit forms from its schema, and delete and custom operations, each offered only when this person's role may run it.
 */
export function DeclaredRecordsPage({ description }: { description: ResourceDescription }) {
  useDocumentTitle(description.displayName);
  const { singular, displayName } = description;
  const list = offered(description, 'list');
  const search = offered(description, 'search');
  const create = offered(description, 'create');
  const update = offered(description, 'update');
  const remove = offered(description, 'delete');
  const customs = description.operations.filter(
    (operation) => operation.kind === 'custom' && operation.allowed && !operation.requiresReauthentication,
  );
  const instanceOperations = customs.filter((operation) => operation.target === 'instance');
  const collectionOperations = customs.filter((operation) => operation.target === 'collection');

  const createFields = useMemo(() => fieldsOf(create?.inputSchema), [create]);
  const editFields = useMemo(() => {
    const editable = new Set(fieldsOf(update?.inputSchema).map((field) => field.name));
    // The create contract says which fields are required; an edit may only leave out what it does not change.
    const fromCreate = fieldsOf(
      description.operations.find((operation) => operation.operation === 'create')?.inputSchema,
    );
    const named = new Set(fromCreate.map((field) => field.name));
    return [
      ...fromCreate.filter((field) => editable.has(field.name)),
      ...fieldsOf(update?.inputSchema).filter((field) => !named.has(field.name)),
    ];
  }, [update, description]);
  const filterFields = useMemo(
    () => description.filters.flatMap((filter) => filterFieldOf(filter) ?? []),
    [description.filters],
  );

  const [filters, setFilters] = useState<Record<string, string>>({});
  const [applied, setApplied] = useState<Record<string, string>>({});
  const [words, setWords] = useState('');
  const [appliedWords, setAppliedWords] = useState('');
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const limit = Math.min(PAGE_SIZE, description.pageSize.default);
  const key = `${description.path}?${JSON.stringify(applied)}&${appliedWords}&${cursor ?? ''}`;
  const records = useSignedInData(key, (accessToken, signal) => {
    if (search && appliedWords.trim()) {
      // SEARCH takes the filters it declares (its own, maybe fewer than LIST's) as JSON values in its body.
      const declared = searchFilterNames(search);
      const searchFilters = Object.fromEntries(
        filterFields
          .filter((field) => declared.has(field.name) && (applied[field.name] ?? '') !== '')
          .map((field) => [field.name, jsonValueOf(field, applied[field.name] ?? '')]),
      );
      return searchRecords(
        search.path,
        {
          query: appliedWords.trim(),
          limit,
          ...(Object.keys(searchFilters).length > 0 ? { filters: searchFilters } : {}),
          ...(cursor ? { cursor } : {}),
        },
        { accessToken, signal },
      );
    }
    return list
      ? listRecords(description.path, { ...applied, limit: String(limit), cursor }, { accessToken, signal })
      : Promise.resolve({ records: [], nextCursor: null });
  });
  const nextCursor = records.state.kind === 'ready' ? records.state.data.nextCursor : null;
  const action = useAction();
  // Which record has which form open: `edit`, a custom operation's key, or `delete` (its confirmation).
  const [open, setOpen] = useState<{ id: string; what: string } | null>(null);
  const [answer, setAnswer] = useState<{ title: string; facts: Array<[string, string]> } | null>(null);

  const reloadAfter = (failure: unknown) => {
    if (!failure) {
      setOpen(null);
      records.reload();
    }
    return failure;
  };

  const createRecord = (body: Record<string, unknown>) =>
    action
      .run(`The ${singular} was not created.`, async (accessToken) => {
        const created = (await callApi('POST', description.path, { accessToken, body })) as ApiRecord;
        return `${capitalized(singular)} “${recordName(description, created)}” created.`;
      })
      .then(reloadAfter);

  const editRecord = (record: ApiRecord, body: Record<string, unknown>) =>
    action
      .run(`The ${singular} was not saved.`, async (accessToken) => {
        if (!update) throw new Error('not offered');
        if (Object.keys(body).length === 0) return 'Nothing changed.';
        const saved = (await callApi('PUT', instancePath(update, record._id), { accessToken, body })) as ApiRecord;
        return `${capitalized(singular)} “${recordName(description, saved)}” saved.`;
      })
      .then(reloadAfter);

  const deleteRecord = (record: ApiRecord) =>
    void action
      .run(`The ${singular} was not deleted.`, async (accessToken) => {
        if (!remove) throw new Error('not offered');
        await callApi('DELETE', instancePath(remove, record._id), { accessToken });
        return `${capitalized(singular)} “${recordName(description, record)}” deleted.`;
      })
      .then(reloadAfter);

  const runOperation = (operation: ResourceOperationDescription, body: Record<string, unknown>, record?: ApiRecord) =>
    action
      .run(`${operation.displayName} did not work.`, async (accessToken) => {
        const path = record ? instancePath(operation, record._id) : operation.path;
        const data = await callApi(operation.method, path, {
          accessToken,
          ...(operation.method === 'GET' ? {} : { body }),
        });
        if (!record) setAnswer({ title: operation.displayName, facts: answerFacts(data) });
        return record
          ? `${operation.displayName}: done for “${recordName(description, record)}”.`
          : `${operation.displayName}: done.`;
      })
      .then(reloadAfter);

  const ownOnly = (remove?.onlyOwnRecords ?? false) || (update?.onlyOwnRecords ?? false);

  return (
    <section className="panel" aria-labelledby="declared-title">
      <h1 id="declared-title" className="page-title">
        {displayName}
      </h1>
      <p className="muted">
        Newest first.{ownOnly ? ` You can change only the ${displayName.toLowerCase()} you created.` : ''}
      </p>
      <LiveStatus message={action.message} />
      {action.failure ? <FailureAlertOf failure={action.failure} /> : null}
      {list && (filterFields.length > 0 || search) ? (
        <form
          className="form form--inline"
          aria-label={`Filter ${displayName.toLowerCase()}`}
          onSubmit={(event) => {
            event.preventDefault();
            setApplied(filters);
            setAppliedWords(words);
            setCursors([undefined]);
          }}
        >
          {search ? <TextField label="Words" value={words} onChange={setWords} /> : null}
          {filterFields.map((field) => (
            <SchemaFieldControl
              key={field.name}
              field={field}
              value={filters[field.name] ?? ''}
              onChange={(value) => setFilters((current) => ({ ...current, [field.name]: value }))}
              anyLabel={`Any ${field.label.toLowerCase()}`}
            />
          ))}
          <button type="submit" className="button">
            {search ? 'Search' : 'Apply filters'}
          </button>
        </form>
      ) : null}
      {!list ? (
        <p className="muted">Your role does not let you see the {displayName.toLowerCase()} of this organization.</p>
      ) : records.state.kind === 'loading' ? (
        <LoadingStatus>Loading {displayName.toLowerCase()}…</LoadingStatus>
      ) : records.state.kind === 'error' ? (
        <FailureAlert
          summary={`The ${displayName.toLowerCase()} could not be loaded.`}
          message={records.state.message}
          onRetry={records.reload}
        />
      ) : records.state.data.records.length === 0 ? (
        <p className="empty muted">No {displayName.toLowerCase()} here.</p>
      ) : (
        <ul className="grant-list" aria-label={displayName}>
          {records.state.data.records.map((record) => {
            const name = recordName(description, record);
            const facts = factsOf(description, record);
            const isOpen = (what: string) => open?.id === record._id && open.what === what;
            const operationForm = instanceOperations.find((operation) => isOpen(operation.operation));
            const operationFields = operationForm ? fieldsOf(operationForm.inputSchema) : [];
            return (
              <li key={record._id} className="record">
                <h2 className="record__title">{name}</h2>
                {facts.length > 0 ? (
                  <p className="muted">{facts.map(([label, value]) => `${label}: ${value}`).join(' · ')}</p>
                ) : null}
                {isOpen('edit') ? (
                  <SchemaForm
                    title={`Edit ${singular}`}
                    fields={editFields}
                    record={record}
                    submitLabel="Save changes"
                    busy={action.busy}
                    onSubmit={(body) => editRecord(record, body)}
                    onCancel={() => setOpen(null)}
                  />
                ) : operationForm ? (
                  <SchemaForm
                    title={`${operationForm.displayName} ${name}`}
                    fields={operationFields}
                    submitLabel={operationForm.displayName}
                    busy={action.busy}
                    onSubmit={(body) => runOperation(operationForm, body, record)}
                    onCancel={() => setOpen(null)}
                  />
                ) : (
                  <div className="actions">
                    {update && editFields.length > 0 ? (
                      <button
                        type="button"
                        className="button"
                        onClick={() => setOpen({ id: record._id, what: 'edit' })}
                      >
                        Edit {name}
                      </button>
                    ) : null}
                    {instanceOperations.map((operation) => (
                      <InstanceOperationButton
                        key={operation.operation}
                        operation={operation}
                        fields={fieldsOf(operation.inputSchema)}
                        name={name}
                        busy={action.busy}
                        confirming={isOpen(`confirm:${operation.operation}`)}
                        onOpen={(what) => setOpen({ id: record._id, what })}
                        onRun={() => void runOperation(operation, {}, record)}
                        onCancel={() => setOpen(null)}
                      />
                    ))}
                    {remove ? (
                      isOpen('delete') ? (
                        <>
                          <button
                            type="button"
                            className="button button--danger"
                            disabled={action.busy}
                            onClick={() => deleteRecord(record)}
                          >
                            Yes, delete {name}
                          </button>
                          <button type="button" className="button" onClick={() => setOpen(null)}>
                            Keep it
                          </button>
                        </>
                      ) : (
                        <button
                          type="button"
                          className="button"
                          onClick={() => setOpen({ id: record._id, what: 'delete' })}
                        >
                          Delete {name}
                        </button>
                      )
                    ) : null}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {list ? <PageNavigation cursors={cursors} setCursors={setCursors} nextCursor={nextCursor} /> : null}
      {create && createFields.length > 0 ? (
        <SchemaForm
          title={`New ${singular}`}
          fields={createFields}
          submitLabel={`Create ${singular}`}
          busy={action.busy}
          onSubmit={createRecord}
        />
      ) : null}
      {collectionOperations.map((operation) => (
        <CollectionOperation
          key={operation.operation}
          operation={operation}
          busy={action.busy}
          onRun={(body) => runOperation(operation, body)}
        />
      ))}
      {answer ? (
        <section aria-label={`${answer.title}: result`}>
          <h2 className="section-title">{answer.title}: result</h2>
          {answer.facts.length > 0 ? (
            <dl className="facts">
              {answer.facts.map(([label, value]) => (
                <div key={label} className="facts__row">
                  <dt>{capitalized(label)}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
          ) : (
            <p className="muted">Done.</p>
          )}
        </section>
      ) : null}
    </section>
  );
}

/** A custom instance operation's button: opens its form, asks to confirm a destructive one, or runs it. */
function InstanceOperationButton({
  operation,
  fields,
  name,
  busy,
  confirming,
  onOpen,
  onRun,
  onCancel,
}: {
  operation: ResourceOperationDescription;
  fields: readonly SchemaField[];
  name: string;
  busy: boolean;
  confirming: boolean;
  onOpen: (what: string) => void;
  onRun: () => void;
  onCancel: () => void;
}) {
  if (confirming)
    return (
      <>
        <button type="button" className="button button--danger" disabled={busy} onClick={onRun}>
          Yes, {operation.displayName.toLowerCase()} {name}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </>
    );
  return (
    <button
      type="button"
      className="button"
      disabled={busy}
      title={operation.description}
      onClick={() =>
        fields.length > 0
          ? onOpen(operation.operation)
          : needsConfirmation(operation)
            ? onOpen(`confirm:${operation.operation}`)
            : onRun()
      }
    >
      {operation.displayName} {name}
    </button>
  );
}

/** A custom collection operation: its form when it takes input, else one button. */
function CollectionOperation({
  operation,
  busy,
  onRun,
}: {
  operation: ResourceOperationDescription;
  busy: boolean;
  onRun: (body: Record<string, unknown>) => Promise<unknown>;
}) {
  const fields = useMemo(() => fieldsOf(operation.inputSchema), [operation]);
  if (fields.length > 0)
    return (
      <SchemaForm
        title={operation.displayName}
        fields={fields}
        submitLabel={operation.displayName}
        busy={busy}
        onSubmit={onRun}
      />
    );
  return (
    <div className="actions">
      <button type="button" className="button" disabled={busy} onClick={() => void onRun({})}>
        {operation.displayName}
      </button>
      {operation.description ? <p className="muted">{operation.description}</p> : null}
    </div>
  );
}
