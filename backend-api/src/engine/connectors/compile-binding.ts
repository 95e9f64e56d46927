import { ResourcePrimaryScope } from '@wildo/shared-lib';
import type { z } from 'zod';
import type { CompiledOperation } from '../resources/index.js';
import type { DeclarationProblem } from '../resources/index.js';
import { declaredKeysAt } from '../resources/schema/index.js';
import type { DeclaredBinding } from './bind-resource.js';
import type {
  Connector,
  ResponseMapping,
  RestConnector,
  RestOperationBinding,
  SqlConnector,
  SqlOperationBinding,
} from './connector.types.js';
import { compileRestRequest, type RestRequestPlan } from './rest/rest-request.js';
import { compileResponseMapping, type AnswerMapper, type BindingProblem } from './response-mapping.js';
import { identityStatement } from './sql/sql-call.js';
import { compileSqlStatement, type SqlStatementPlan } from './sql/sql-statement.js';
import { parseTemplate, templateEnvNames } from './templates.js';

/** A binding compiled against its operation: the request or statement, and the answer's mapping. */
export type CompiledBinding = {
  /** `<type>.<operation>` */
  key: string;
  label: string;
  operation: CompiledOperation;
  map: AnswerMapper;
} & (
  | { kind: 'rest'; connector: RestConnector; rest: RestRequestPlan }
  | {
      kind: 'sql';
      connector: SqlConnector;
      sql: SqlStatementPlan;
      identitySql: string;
      dsnEnv: string | undefined;
    }
);

/** The label of a binding in start-up messages. */
export function bindingLabel(declared: DeclaredBinding): string {
  return `binding "${declared.resourceType}.${declared.operation}" (${declared.origin ?? 'declared in code'})`;
}

function checkFields(
  names: Iterable<string>,
  schema: z.ZodType | undefined,
  path: (name: string) => string,
  what: string,
  problems: BindingProblem[],
): void {
  const declared = schema ? declaredKeysAt(schema, []) : [];
  if (!declared) return;
  for (const name of new Set(names))
    if (!declared.includes(name))
      problems.push({
        path: path(name),
        message: `"${name}" is not a field of the ${what}; use one of: ${declared.join(', ') || '(none declared)'}`,
      });
}

/** The response mapping's field names against the operation's output. */
function checkResponse(binding: { response?: unknown }, output: z.ZodType, problems: BindingProblem[]): void {
  const response = binding.response as { into?: unknown; collection?: unknown; map?: object; extract?: object };
  if (response === null || typeof response !== 'object') {
    problems.push({
      path: 'response',
      message: 'declare how the answer maps onto the output: { map: { field: "$.path" } }',
    });
    return;
  }
  const top = declaredKeysAt(output, []);
  const into = typeof response.into === 'string' ? response.into : undefined;
  if (into !== undefined && top && !top.includes(into))
    problems.push({
      path: 'response.into',
      message: `"${into}" is not a field of the output; use one of: ${top.join(', ')}`,
    });
  const itemPath = [...(into === undefined ? [] : [into]), ...(response.collection === undefined ? [] : [0])];
  const itemKeys = declaredKeysAt(output, itemPath);
  if (itemKeys)
    for (const field of Object.keys(response.map ?? {}))
      if (!itemKeys.includes(field))
        problems.push({
          path: `response.map.${field}`,
          message: `"${field}" is not declared in the output; map declared fields only (${itemKeys.join(', ')})`,
        });
  if (top && response.extract)
    for (const field of Object.keys(response.extract))
      if (!top.includes(field) || field === into)
        problems.push({
          path: `response.extract.${field}`,
          message: `"${field}" is not a further field of the output`,
        });
}

function compileSql(
  binding: SqlOperationBinding,
  operation: CompiledOperation,
  problems: BindingProblem[],
): { sql: SqlStatementPlan; identitySql: string; dsnEnv: string | undefined } {
  const sql = compileSqlStatement(binding, operation.scope === ResourcePrimaryScope.ORGANIZATIONS, problems);
  checkFields(sql.params, operation.inputSchema, (name) => `params.${name}`, 'input', problems);
  const dsn = parseTemplate(binding.connector.dsn, 'connector.dsn', { env: true }, problems);
  const envNames = templateEnvNames(dsn);
  if (dsn.parts.length !== 1 || envNames.length !== 1)
    problems.push({
      path: 'connector.dsn',
      message: 'read the connection string from the environment, whole: dsn: "${REPORTING_DSN}" (never a literal)',
    });
  return { sql, identitySql: identityStatement(sql), dsnEnv: envNames[0] };
}

/**
 * Compiles one declared binding against the operation it answers. Every problem is reported with the binding's name,
 * the path inside it and the fix; nothing is compiled when there is one.
 */
export function compileBinding(
  declared: DeclaredBinding,
  operation: CompiledOperation | undefined,
  report: DeclarationProblem[],
): CompiledBinding | undefined {
  const label = bindingLabel(declared);
  const problems: BindingProblem[] = [];
  // Declarations from a manifest or untyped code reach here too: read them loosely, check every part.
  const binding = (declared.binding ?? {}) as { connector?: Partial<Connector>; sql?: unknown; response?: unknown };
  const connector = binding.connector;
  if (!operation || operation.kind !== 'custom') {
    report.push({
      declaration: label,
      path: '(operation)',
      message: `resource "${declared.resourceType}" declares no custom operation "${declared.operation}"; declare it in customOperations`,
    });
    return undefined;
  }
  if (!connector || (connector.kind !== 'rest' && connector.kind !== 'sql') || typeof connector.name !== 'string') {
    report.push({
      declaration: label,
      path: 'connector',
      message: 'name the connector: restConnector({...}) or sqlConnector({...})',
    });
    return undefined;
  }
  const map = compileResponseMapping(binding.response as ResponseMapping, problems);
  checkResponse(binding, operation.responseSchema, problems);
  const common = { key: `${declared.resourceType}.${declared.operation}`, label, operation, map };
  let compiled: CompiledBinding;
  if (connector.kind === 'rest') {
    if (binding.sql !== undefined)
      problems.push({ path: 'sql', message: 'a REST binding has a method and a path, not sql' });
    const rest = compileRestRequest(declared.binding as RestOperationBinding, problems);
    checkFields(rest.fields, operation.inputSchema, (name) => `{${name}}`, 'input', problems);
    compiled = { ...common, kind: 'rest', connector: connector as RestConnector, rest };
  } else {
    const sql = compileSql(declared.binding as SqlOperationBinding, operation, problems);
    compiled = { ...common, kind: 'sql', connector: connector as SqlConnector, ...sql };
  }
  for (const problem of problems) report.push({ declaration: label, path: problem.path, message: problem.message });
  return problems.length === 0 ? compiled : undefined;
}
