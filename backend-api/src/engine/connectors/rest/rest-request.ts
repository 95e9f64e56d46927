import { FrameworkError } from '../../errors/index.js';
import type { RestOperationBinding } from '../connector.types.js';
import type { BindingProblem } from '../response-mapping.js';
import {
  inputValue,
  parseTemplate,
  renderText,
  templateEnvNames,
  templateFields,
  usesCallerToken,
  type Template,
  type TemplateScope,
} from '../templates.js';

/** The request one call sends, before the outbound guard. */
export interface RestRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** What a REST call reads besides its input: the environment and the caller's delegated token, when there is one. */
export interface RestCallScope {
  env(name: string): string | undefined;
  callerToken(): string | undefined;
}

/** A compiled REST binding: its request, built per call from the validated input. */
export interface RestRequestPlan {
  /** The connector's base URL with its environment variables read; undefined when it is not an http(s) URL. */
  baseUrl(env: (name: string) => string | undefined): URL | undefined;
  /** Input fields the templates name (checked against the operation's input at start). */
  readonly fields: readonly string[];
  /** Environment variables the templates read. */
  readonly envNames: readonly string[];
  /** Whether a header forwards the caller's delegated token. */
  readonly forwardsCallerToken: boolean;
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
  build(input: unknown, scope: RestCallScope): RestRequest;
}

/** Headers the transport owns: a binding may not set them. */
const TRANSPORT_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'accept-encoding']);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
const UNSAFE_HEADER_TEXT = /[\r\n\0]/;

/** A body template: JSON whose strings may hold placeholders. */
type BodyTemplate =
  | { kind: 'literal'; value: unknown }
  | { kind: 'text'; template: Template }
  | { kind: 'array'; items: BodyTemplate[] }
  | { kind: 'object'; entries: [string, BodyTemplate][] };

const notConfigured = () =>
  new FrameworkError('SERVICE_UNAVAILABLE', "This operation's backend is not configured on this server.");

const tokenRequired = () =>
  new FrameworkError(
    'FORBIDDEN',
    "This operation acts with the caller's own delegated token: call it as a person, through MCP, with a delegated token.",
    { reason: 'principal_not_allowed' },
  );

const inputInvalid = (field: string, expected: string) =>
  new FrameworkError('VALIDATION_FAILED', 'The input cannot be sent to the backend.', {
    reason: 'input_invalid',
    problems: [{ path: field, expected }],
  });

function scalarText(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw inputInvalid(field, 'a text, number or boolean value');
}

function compileBody(value: unknown, at: string, problems: BindingProblem[], fields: Set<string>): BodyTemplate {
  if (typeof value === 'string') {
    const template = parseTemplate(value, at, { input: true }, problems);
    templateFields(template).forEach((f) => fields.add(f));
    return { kind: 'text', template };
  }
  if (Array.isArray(value))
    return { kind: 'array', items: value.map((item, i) => compileBody(item, `${at}[${i}]`, problems, fields)) };
  if (value !== null && typeof value === 'object')
    return {
      kind: 'object',
      entries: Object.entries(value).map(([key, item]) => [key, compileBody(item, `${at}.${key}`, problems, fields)]),
    };
  return { kind: 'literal', value };
}

/** Renders a body template; `undefined` leaves the place out (an absent optional input). */
function renderBody(node: BodyTemplate, scope: TemplateScope): unknown {
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'text':
      return node.template.single
        ? inputValue(scope.input, node.template.single.path)
        : renderText(node.template, scope);
    case 'array':
      return node.items.map((item) => renderBody(item, scope) ?? null);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, item] of node.entries) {
        const value = renderBody(item, scope);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
  }
}

function compileHeaders(
  sources: readonly (Readonly<Record<string, string>> | undefined)[],
  at: readonly string[],
  problems: BindingProblem[],
): Map<string, Template> {
  const headers = new Map<string, Template>();
  sources.forEach((source, i) => {
    for (const [name, value] of Object.entries(source ?? {})) {
      const where = `${at[i]}.${name}`;
      const lower = name.toLowerCase();
      if (!HEADER_NAME.test(name) || TRANSPORT_HEADERS.has(lower)) {
        problems.push({ path: where, message: `"${name}" is not a header a binding may set` });
        continue;
      }
      headers.set(lower, parseTemplate(value, where, { input: true, env: true, callerToken: true }, problems));
    }
  });
  return headers;
}

/** The default query of a GET or DELETE: every input field the path does not use, as text (lists repeated). */
function defaultQuery(input: unknown, used: ReadonlySet<string>, params: URLSearchParams): void {
  if (input === null || typeof input !== 'object') return;
  for (const [key, value] of Object.entries(input)) {
    if (used.has(key) || value === undefined || value === null) continue;
    if (Array.isArray(value))
      for (const item of value) params.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item));
    else params.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
}

/** The default body of a POST, PUT or PATCH: the input without the fields the path uses. */
function defaultBody(input: unknown, used: ReadonlySet<string>): unknown {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return input ?? {};
  return Object.fromEntries(Object.entries(input).filter(([key]) => !used.has(key)));
}

/**
 * Compiles a REST binding's request: the base URL (literal or `${ENV}`), the path with encoded input placeholders,
 * the query and body (templates, or the input the path does not use), the headers (`${ENV}`, `${caller.accessToken}`).
 * A built URL always stays on the base URL's origin and below its path: an input cannot steer the call elsewhere.
 */
export function compileRestRequest(binding: RestOperationBinding, problems: BindingProblem[]): RestRequestPlan {
  const connector = binding.connector;
  const baseUrl = parseTemplate(connector.baseUrl, 'connector.baseUrl', { env: true }, problems);
  const method = binding.method;
  if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method))
    problems.push({ path: 'method', message: 'use GET, POST, PUT, PATCH or DELETE' });
  if (typeof binding.path !== 'string' || !binding.path.startsWith('/'))
    problems.push({ path: 'path', message: 'the path starts with "/" (below the connector\'s base URL)' });
  const path = parseTemplate(binding.path, 'path', { input: true }, problems);
  const query = Object.entries(binding.query ?? {}).map(
    ([name, value]) => [name, parseTemplate(value, `query.${name}`, { input: true }, problems)] as const,
  );
  const fields = new Set([...templateFields(path), ...query.flatMap(([, t]) => templateFields(t))]);
  const body = binding.body === undefined ? undefined : compileBody(binding.body, 'body', problems, fields);
  if (body && !WITH_BODY.has(method))
    problems.push({ path: 'body', message: `a ${method} request has no body; remove it or use POST` });
  const headers = compileHeaders([connector.headers, binding.headers], ['connector.headers', 'headers'], problems);
  for (const header of headers.values()) templateFields(header).forEach((f) => fields.add(f));
  const pathFields = new Set(templateFields(path));
  const envNames = [baseUrl, ...headers.values()].flatMap(templateEnvNames);
  const forwardsCallerToken = [...headers.values()].some(usesCallerToken);
  const timeoutMs = binding.timeoutMs ?? connector.timeoutMs;

  const resolveBase = (env: (name: string) => string | undefined): URL | undefined => {
    let missing = false;
    const text = renderText(baseUrl, {
      input: undefined,
      env: (name) => env(name) ?? ((missing = true), ''),
      callerToken: () => '',
      inputText: () => undefined,
    });
    if (missing || text === undefined || !URL.canParse(text)) return undefined;
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') &&
      !url.username &&
      !url.password &&
      !url.search &&
      !url.hash
      ? url
      : undefined;
  };

  const build = (input: unknown, call: RestCallScope): RestRequest => {
    const scope = (inputText: TemplateScope['inputText']): TemplateScope => ({
      input,
      env: (name) => {
        const value = call.env(name);
        if (value === undefined) throw notConfigured();
        return value;
      },
      callerToken: () => {
        const token = call.callerToken();
        if (token === undefined) throw tokenRequired();
        return token;
      },
      inputText,
    });
    const base = resolveBase((name) => call.env(name));
    if (!base) throw notConfigured();
    const renderedPath = renderText(
      path,
      scope((value, field) => {
        const text = scalarText(value, field);
        if (text === undefined) throw inputInvalid(field, 'required');
        if (text === '.' || text === '..' || text === '')
          throw inputInvalid(field, 'a value other than "", "." or ".."');
        return encodeURIComponent(text);
      }),
    ) as string;
    const url = new URL(`${base.pathname.replace(/\/$/, '')}${renderedPath}`, base.origin);
    // Encoded placeholders cannot add segments; this is the second lock on the door.
    if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname.replace(/\/$/, '')))
      throw inputInvalid([...pathFields][0] ?? '(path)', "a value that stays on the backend's path");
    if (binding.query) {
      for (const [name, template] of query) {
        const whole = template.single ? inputValue(input, template.single.path) : undefined;
        if (Array.isArray(whole)) for (const item of whole) url.searchParams.append(name, String(item));
        else {
          const value = renderText(
            template,
            scope((v, field) => scalarText(v, field)),
          );
          if (value !== undefined) url.searchParams.append(name, value);
        }
      }
    } else if (!WITH_BODY.has(method)) {
      defaultQuery(input, pathFields, url.searchParams);
    }
    const rendered: Record<string, string> = { accept: 'application/json' };
    for (const [name, template] of headers) {
      const value = renderText(
        template,
        scope((v, field) => scalarText(v, field)),
      );
      if (value === undefined) continue;
      if (UNSAFE_HEADER_TEXT.test(value)) throw inputInvalid(name, 'text without line breaks');
      rendered[name] = value;
    }
    if (!WITH_BODY.has(method)) return { url: url.href, method, headers: rendered };
    rendered['content-type'] = 'application/json';
    const payload = body
      ? renderBody(
          body,
          scope((v, field) => scalarText(v, field)),
        )
      : defaultBody(input, pathFields);
    return { url: url.href, method, headers: rendered, body: JSON.stringify(payload) };
  };

  return {
    baseUrl: resolveBase,
    fields: [...fields],
    envNames: [...new Set(envNames)],
    forwardsCallerToken,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(connector.maxBytes !== undefined ? { maxBytes: connector.maxBytes } : {}),
    build,
  };
}
