/** One field of an operation's input schema, as the page labels it. */
interface FieldSchema {
  title?: string;
  description?: string;
  type?: string;
}

function fieldsOf(schema: unknown): Record<string, FieldSchema> {
  if (typeof schema !== 'object' || schema === null) return {};
  const properties = (schema as { properties?: unknown }).properties;
  return typeof properties === 'object' && properties !== null ? (properties as Record<string, FieldSchema>) : {};
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The arguments of a call as a read-only form: one labelled field per argument, in the order the operation's schema
 * declares them (arguments it does not name come last), so the person reads exactly what will run.
 */
export function ApprovalArguments({
  values,
  schema,
  idPrefix,
}: {
  values: unknown;
  schema: unknown;
  idPrefix: string;
}) {
  const given = typeof values === 'object' && values !== null ? (values as Record<string, unknown>) : {};
  const fields = fieldsOf(schema);
  const names = [
    ...Object.keys(fields).filter((name) => name in given),
    ...Object.keys(given).filter((name) => !(name in fields)),
  ];
  if (names.length === 0) return <p className="muted">This call takes no arguments.</p>;
  return (
    <fieldset className="approval-arguments" disabled>
      <legend>What will be sent</legend>
      {names.map((name) => {
        const field = fields[name] ?? {};
        const id = `${idPrefix}-${name}`;
        return (
          <div key={name} className="field">
            <label htmlFor={id}>{field.title ?? name}</label>
            <input id={id} readOnly value={show(given[name])} />
            {field.description ? <small className="muted">{field.description}</small> : null}
          </div>
        );
      })}
    </fieldset>
  );
}
