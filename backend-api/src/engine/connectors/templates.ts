import type { BindingProblem } from './response-mapping.js';

/** One piece of a template: literal text, an input value, an environment variable or the caller's token. */
export type TemplatePart =
  | { kind: 'text'; text: string }
  | { kind: 'input'; field: string; path: readonly string[] }
  | { kind: 'env'; name: string }
  | { kind: 'caller-token' };

/** A parsed template string. */
export interface Template {
  readonly source: string;
  readonly parts: readonly TemplatePart[];
  /** The template is exactly one input placeholder (`{stayId}`): its value keeps its JSON type. */
  readonly single?: { field: string; path: readonly string[] };
}

/** What a template may refer to where it is used. */
export interface TemplateAllowance {
  input?: boolean;
  env?: boolean;
  callerToken?: boolean;
}

const PLACEHOLDER = /\$\{([^}]*)\}|\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}/g;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The one caller reference a template may hold. */
export const CALLER_TOKEN_REFERENCE = 'caller.accessToken';

/**
 * Parses a template: `{field}` (an input value, `{dates.from}` for a nested one), `${NAME}` (an environment
 * variable) and `${caller.accessToken}` (the caller's verified delegated token). What `allowed` does not admit
 * where the template is used is reported as a problem at `at`.
 */
export function parseTemplate(
  source: unknown,
  at: string,
  allowed: TemplateAllowance,
  problems: BindingProblem[],
): Template {
  if (typeof source !== 'string') {
    problems.push({ path: at, message: 'write a text template, e.g. "/v1/stays/{stayId}" or "Bearer ${API_KEY}"' });
    return { source: '', parts: [] };
  }
  const parts: TemplatePart[] = [];
  let last = 0;
  for (const match of source.matchAll(PLACEHOLDER)) {
    if (match.index > last) parts.push({ kind: 'text', text: source.slice(last, match.index) });
    last = match.index + match[0].length;
    const [, reference, field] = match;
    if (field !== undefined) {
      if (!allowed.input)
        problems.push({
          path: at,
          message: `input values cannot be used here ({${field}}); use a literal or an environment variable`,
        });
      const path = field.split('.');
      parts.push({ kind: 'input', field: path[0] ?? field, path });
    } else if (reference === CALLER_TOKEN_REFERENCE) {
      if (!allowed.callerToken)
        problems.push({
          path: at,
          message:
            'the caller\'s token may only travel in a header (e.g. Authorization: "Bearer ${caller.accessToken}")',
        });
      parts.push({ kind: 'caller-token' });
    } else if (reference !== undefined && ENV_NAME.test(reference)) {
      if (!allowed.env)
        problems.push({
          path: at,
          message: `environment variables cannot be used here (\${${reference}}); use an input placeholder`,
        });
      parts.push({ kind: 'env', name: reference });
    } else {
      problems.push({
        path: at,
        message: `"\${${reference ?? ''}}" is neither an environment variable name nor \${${CALLER_TOKEN_REFERENCE}}`,
      });
    }
  }
  if (last < source.length) parts.push({ kind: 'text', text: source.slice(last) });
  const only = parts.length === 1 ? parts[0] : undefined;
  return {
    source,
    parts,
    ...(only?.kind === 'input' ? { single: { field: only.field, path: only.path } } : {}),
  };
}

/** The input fields a template reads. */
export function templateFields(template: Template): string[] {
  return template.parts.flatMap((part) => (part.kind === 'input' ? [part.field] : []));
}

/** The environment variables a template reads. */
export function templateEnvNames(template: Template): string[] {
  return template.parts.flatMap((part) => (part.kind === 'env' ? [part.name] : []));
}

/** Whether a template forwards the caller's token. */
export function usesCallerToken(template: Template): boolean {
  return template.parts.some((part) => part.kind === 'caller-token');
}

/** The value at a nested input path; own properties only. */
export function inputValue(input: unknown, path: readonly string[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || Array.isArray(current) || !Object.hasOwn(current, key))
      return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** How a rendering reads what a template refers to. */
export interface TemplateScope {
  input: unknown;
  env(name: string): string;
  callerToken(): string;
  /** Text of an input value in this place (encoded in a path); undefined: the value is absent. */
  inputText(value: unknown, field: string): string | undefined;
}

/** Renders a template as text; undefined when an input value it names is absent. */
export function renderText(template: Template, scope: TemplateScope): string | undefined {
  let text = '';
  for (const part of template.parts) {
    switch (part.kind) {
      case 'text':
        text += part.text;
        break;
      case 'env':
        text += scope.env(part.name);
        break;
      case 'caller-token':
        text += scope.callerToken();
        break;
      case 'input': {
        const value = scope.inputText(inputValue(scope.input, part.path), part.path.join('.'));
        if (value === undefined) return undefined;
        text += value;
      }
    }
  }
  return text;
}
