import { governedOutputRegistry, type PrincipalMatcher } from '@wildo/shared-lib';
import { z } from 'zod';
import { withEngineModules, type BackendApplicationDefinition } from '../bootstrap/index.js';
import { compileApplicationBindings, declaredBindings, type OperationBinding } from '../connectors/index.js';
import {
  compileApplicationResources,
  DeclarationValidationError,
  type CompiledOperation,
  type CompiledResource,
} from '../resources/index.js';
import { fieldsOfJsonSchema, type FieldShape } from './schema-fields.js';

// What an application declares, as plain data: every capability (operation variant) of the application's own modules
// with its effect, callers, policies, contracts and binding. diff compares two of these; doctor lints one.

/** A governed output field (`z_image`, `z_webPage`, `z_html`) and the origins it declares. */
export interface GovernedField {
  path: string;
  kind: 'image' | 'web-page' | 'html';
  origins: readonly string[];
}

/** How a capability reaches an external backend, when a connector binds it. */
export interface BindingSnapshot {
  connector: string;
  kind: 'rest' | 'sql';
  /** The REST base URL or the SQL connection string, as declared (`${ENV}` placeholders, never their values). */
  target: string;
  /** `POST /v1/bookings`, or the SELECT statement. */
  call: string;
  /** SQL: the identity claims passed to row-level security (`wildo.organization_id <- organizationId`). */
  identity?: Readonly<Record<string, string>>;
  /** Where it was declared (`module "travel-desk"`, a manifest file). */
  origin?: string;
}

/** One capability: an operation variant as the dispatch path runs it. */
export interface CapabilitySnapshot {
  /** `hotels.book`, or `hotels.book#admin` for a variant that is not the default. */
  id: string;
  resource: string;
  operation: string;
  /** `module "travel-desk"`: where to look for the declaration. */
  declaredIn: string;
  /** `APPLICATION` (shared by every account), `ORGANIZATIONS` or `USER`. */
  scope: string;
  effect: string;
  roles: readonly string[];
  lifecycle: string;
  http: string | null;
  mcp: { servers: readonly string[] } | null;
  authenticated: boolean;
  allow: readonly string[];
  deny: readonly string[];
  rateLimit: { points: number; durationSeconds: number } | null;
  approval: boolean;
  reauthentication: boolean;
  failures: Readonly<Record<string, string>>;
  input: readonly FieldShape[];
  output: readonly FieldShape[];
  governed: readonly GovernedField[];
  binding: BindingSnapshot | null;
}

/** Every capability of an application's own modules (the engine's are the framework's, not the application's). */
export interface DeclarationSnapshot {
  application: string;
  capabilities: readonly CapabilitySnapshot[];
}

/**
 * The snapshot of an application's own capabilities, its resources and bindings compiled as at start (a refused
 * declaration throws, naming it). Agents and the runtime configuration are not read: only what capabilities declare.
 */
export function snapshotDeclarations(application: BackendApplicationDefinition): DeclarationSnapshot {
  const full = withEngineModules(application);
  const compiled = compileApplicationResources(full);
  const problems = [...compiled.problems];
  compileApplicationBindings(full, compiled.resources, compiled.refusedTypes, problems);
  if (problems.length > 0) throw new DeclarationValidationError(problems);
  const ownTypes = new Map<string, string>();
  for (const module of application.modules)
    for (const resource of module.resources ?? []) ownTypes.set(resource.type, module.name);
  const bindings = new Map(declaredBindings(application).map((b) => [`${b.resourceType}.${b.operation}`, b] as const));
  const capabilities: CapabilitySnapshot[] = [];
  for (const resource of compiled.resources.values()) {
    const module = ownTypes.get(resource.type);
    if (module === undefined) continue;
    for (const operation of resource.operations.values()) {
      const bound = bindings.get(`${resource.type}.${operation.operation}`);
      capabilities.push(
        capabilityOf(resource, operation, `module "${module}"`, bound ? bindingOf(bound.binding, bound.origin) : null),
      );
    }
  }
  capabilities.sort((a, b) => a.id.localeCompare(b.id));
  return { application: application.name, capabilities };
}

function matcherText(matcher: PrincipalMatcher): string {
  const detail = Object.entries(matcher)
    .filter(([key]) => key !== 'kind')
    .map(([, value]) => String(value));
  return detail.length > 0 ? `${matcher.kind}:${detail.join(',')}` : matcher.kind;
}

function capabilityOf(
  resource: CompiledResource,
  operation: CompiledOperation,
  declaredIn: string,
  binding: BindingSnapshot | null,
): CapabilitySnapshot {
  const policies = operation.policies;
  const variant = operation.variant as { approval?: unknown };
  const output = schemaFields(operation.responseSchema, 'output');
  return {
    id: operation.servicePath,
    resource: resource.type,
    operation: operation.operation,
    declaredIn,
    scope: operation.scope,
    effect: operation.effect,
    roles: [...operation.roles].sort(),
    lifecycle: operation.lifecycle,
    http: operation.http ? `${operation.http.method} ${operation.http.path}` : null,
    mcp: operation.mcp?.exposed ? { servers: [...(operation.mcp.servers ?? [])].sort() } : null,
    authenticated: policies?.authenticated === true,
    allow: (policies?.allow ?? []).map(matcherText).sort(),
    deny: (policies?.deny ?? []).map(matcherText).sort(),
    rateLimit: policies?.rateLimit
      ? { points: policies.rateLimit.points, durationSeconds: policies.rateLimit.durationSeconds }
      : null,
    approval: variant.approval !== undefined && variant.approval !== null,
    reauthentication: operation.requiresReauthentication,
    failures: { ...(operation.failures ?? {}) },
    input: operation.inputSchema ? schemaFields(operation.inputSchema, 'input').fields : [],
    output: output.fields,
    governed: output.governed,
    binding,
  };
}

/** The fields of a contract and its governed outputs (read from the registry `z_image`, `z_webPage`, `z_html` fill). */
function schemaFields(schema: z.ZodType, io: 'input' | 'output'): { fields: FieldShape[]; governed: GovernedField[] } {
  const json = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    metadata: governedOutputRegistry,
  }) as Record<string, unknown>;
  const governed: GovernedField[] = [];
  const fields = fieldsOfJsonSchema(json, (path, node) => {
    const kind = node.kind;
    if (kind !== 'image' && kind !== 'web-page' && kind !== 'html') return;
    const origins = node.origins as string[] | { images: string[]; pages: string[] };
    governed.push({
      path,
      kind,
      origins: Array.isArray(origins) ? [...origins] : [...origins.images, ...origins.pages],
    });
  });
  return { fields, governed };
}

function bindingOf(binding: OperationBinding, origin: string | undefined): BindingSnapshot {
  const where = origin ? { origin } : {};
  if (binding.connector.kind === 'rest') {
    const rest = binding as Extract<OperationBinding, { method: string }>;
    return {
      connector: rest.connector.name,
      kind: 'rest',
      target: rest.connector.baseUrl,
      call: `${rest.method} ${rest.path}`,
      ...where,
    };
  }
  const sql = binding as Extract<OperationBinding, { sql: string }>;
  return {
    connector: sql.connector.name,
    kind: 'sql',
    target: sql.connector.dsn,
    call: sql.sql,
    ...(sql.identity ? { identity: { ...sql.identity } } : {}),
    ...where,
  };
}
