import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CoreResourceOperation,
  CORE_APP_ROLES,
  CORE_ORG_ROLES,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
  type AnyResourceDeclaration,
  type PrincipalMatcher,
  type ResourceOperationPolicies,
  type ResourceOperationVariant,
} from '@wildo/shared-lib';
import { z } from 'zod';
import type { ResourcesModule } from '../../resources/index.js';
import { DeclarationValidationError, type DeclarationProblem } from '../../resources/index.js';
import { boundImplementation } from '../bind-resource.js';
import { restConnector, sqlConnector } from '../connectors.js';
import type { OperationBinding, ResponseMapping } from '../connector.types.js';
import {
  CdlBindingSchema,
  CdlCapabilitySchema,
  CdlPolicySchema,
  CdlResourceSchema,
  CdlRootSchema,
  type CdlBinding,
  type CdlCapability,
  type CdlPolicy,
  type CdlResource,
} from './cdl-documents.schema.js';
import { fieldSchema, objectSchema, resolveResource, resourceSchema, type FieldContext } from './cdl-fields.js';
import { parseDocumentAs, readManifestDocuments, type ManifestDocument } from './manifest-documents.js';

/** Options of {@link loadCapabilityManifest}. */
export interface CapabilityManifestOptions {
  /** The directory that holds `capabilities.yaml` and the other documents (a path, or a `file:` URL). */
  directory: string | URL;
  /** The module's name (default: the company id of `capabilities.yaml`). */
  moduleName?: string;
  /** Where the capabilities live (default: in each organization, `/organizations/:id/<namespace>/<name>`). */
  scope?: ResourcePrimaryScope;
  /** Who may call them (default: `ORG_MEMBER`, or `APP_USER` outside organizations). */
  roles?: readonly string[];
  /**
   * The verified principal each name in a policy's allow and deny lists stands for. A manifest names principals as
   * strings (`demo:visitor`); the framework matches verified identities only, so every name must be mapped here.
   */
  principals?: Readonly<Record<string, PrincipalMatcher>>;
}

/** Documents by kind, each with the document it came from. */
interface Indexed {
  capabilities: Map<string, { value: CdlCapability; doc: ManifestDocument }>;
  resources: Map<string, CdlResource>;
  bindings: Map<string, { value: CdlBinding; doc: ManifestDocument }>;
  policies: { value: CdlPolicy; doc: ManifestDocument }[];
  root?: { value: z.output<typeof CdlRootSchema>; doc: ManifestDocument };
}

function classify(documents: readonly ManifestDocument[]): Indexed {
  const indexed: Indexed = { capabilities: new Map(), resources: new Map(), bindings: new Map(), policies: [] };
  for (const doc of documents) {
    const data = (doc.data ?? {}) as Record<string, unknown>;
    if (typeof data !== 'object' || Array.isArray(data)) {
      doc.report(
        [],
        'a manifest document is a mapping: capability:, resource:, binding:, kind: Policy, or company: with capabilities:',
      );
    } else if ('capability' in data) {
      const value = parseDocumentAs(doc, CdlCapabilitySchema)?.capability;
      if (value && indexed.capabilities.has(value.id))
        doc.report('capability.id', `${value.id} is declared twice; keep one file per capability`);
      else if (value) indexed.capabilities.set(value.id, { value, doc });
    } else if ('resource' in data) {
      const value = parseDocumentAs(doc, CdlResourceSchema)?.resource;
      if (value && !value.name.includes('.'))
        doc.report('resource.name', `qualify the name with its namespace, e.g. wanderlust.${value.name}`);
      else if (value && indexed.resources.has(value.name))
        doc.report('resource.name', `${value.name} is declared twice`);
      else if (value) indexed.resources.set(value.name, value);
    } else if ('binding' in data) {
      const value = parseDocumentAs(doc, CdlBindingSchema)?.binding;
      if (value && indexed.bindings.has(value.capabilityId))
        doc.report('binding.capabilityId', `${value.capabilityId} is bound twice; keep one binding`);
      else if (value) indexed.bindings.set(value.capabilityId, { value, doc });
    } else if (data.kind === 'Policy') {
      const value = parseDocumentAs(doc, CdlPolicySchema);
      if (value) indexed.policies.push({ value, doc });
    } else if ('capabilities' in data || 'company' in data) {
      const value = parseDocumentAs(doc, CdlRootSchema);
      if (value && indexed.root)
        doc.report([], `a second capabilities list (the first is ${indexed.root.doc.file}); keep one`);
      else if (value) indexed.root = { value, doc };
    } else {
      doc.report(
        [],
        'unknown document: expected capability:, resource:, binding:, kind: Policy, or company: with capabilities:',
      );
    }
  }
  return indexed;
}

/** The policies of one capability, merged from its policy documents and its `policies:` list. */
function policiesOf(
  capability: CdlCapability,
  documents: readonly { value: CdlPolicy; doc: ManifestDocument }[],
  principals: Readonly<Record<string, PrincipalMatcher>>,
): ResourceOperationPolicies | undefined {
  const allow: PrincipalMatcher[] = [];
  const deny: PrincipalMatcher[] = [];
  let rateLimit: ResourceOperationPolicies['rateLimit'];
  for (const { value, doc } of documents) {
    for (const list of ['allow', 'deny'] as const)
      value.spec[list]?.forEach((name, i) => {
        const matcher = Object.hasOwn(principals, name) ? principals[name] : undefined;
        if (matcher) (list === 'allow' ? allow : deny).push(matcher);
        else
          doc.report(
            ['spec', list, i],
            `"${name}" names no verified principal: map it in the loader's principals option, e.g. { "${name}": { kind: 'person', userId: '...' } }`,
          );
      });
    if (value.spec.rateLimit && rateLimit)
      doc.report('spec.rateLimit', `${capability.id} already has a rate limit in another policy; keep one`);
    else if (value.spec.rateLimit)
      rateLimit = { points: value.spec.rateLimit.maxInvocations, durationSeconds: value.spec.rateLimit.windowSeconds };
  }
  const policies: ResourceOperationPolicies = {
    ...(capability.policies?.includes('authenticated') ? { authenticated: true as const } : {}),
    ...(allow.length > 0 ? { allow } : {}),
    ...(deny.length > 0 ? { deny } : {}),
    ...(rateLimit ? { rateLimit } : {}),
  };
  return Object.keys(policies).length > 0 ? policies : undefined;
}

const CORE_OPERATION_NAMES = new Set<string>(Object.values(CoreResourceOperation));

/**
 * The operation a capability becomes: its name, except the names of the framework's core operations (`search`,
 * `list`, `read`, ...), which take the suffix `-capability` (`wanderlust.search` → `wanderlust/search-capability`).
 */
export function operationNameOf(capabilityName: string): string {
  return CORE_OPERATION_NAMES.has(capabilityName) ? `${capabilityName}-capability` : capabilityName;
}

/** The output field a binding's resource fills: the one field whose type or collection is that resource. */
function intoField(capability: CdlCapability, binding: CdlBinding, ctx: FieldContext, doc: ManifestDocument) {
  const target = resolveResource(binding.response.resource, ctx);
  const matches = Object.entries(capability.output).filter(([, field]) => {
    const named = field.collection ?? field.type;
    return named !== undefined && target !== undefined && resolveResource(named, ctx) === target;
  });
  // An unknown resource is reported where the output names it (see outputSchema), or here when nothing does.
  if (!target) doc.report('binding.response.resource', `no resource named ${binding.response.resource}`);
  else if (matches.length !== 1)
    doc.report(
      'binding.response.resource',
      `${target} must be the type or collection of exactly one output field of ${capability.id} (found ${matches.length})`,
    );
  const [name, field] = matches[0] ?? [];
  if (field && (field.collection !== undefined) !== (binding.response.collection !== undefined))
    doc.report(
      'binding.response.collection',
      field.collection
        ? `the output field ${name} is a collection: give the rows' JSONPath, e.g. "$.items[*]"`
        : `the output field ${name} is one object: remove collection`,
    );
  return name;
}

/** Every output field is filled: the bound one, or one the binding extracts. */
function checkExtracted(capability: CdlCapability, binding: CdlBinding, into: string, doc: ManifestDocument): void {
  for (const name of Object.keys(capability.output))
    if (name !== into && !Object.hasOwn(binding.response.extract ?? {}, name))
      doc.report(
        `capability.output.${name}`,
        `the binding of ${capability.id} does not fill ${name}: map it under response.extract, or remove it`,
      );
}

/** The output schema: the bound field `into` (with its error rows), and the extracted ones. */
function outputSchema(capability: CdlCapability, binding: CdlBinding, into: string | undefined, ctx: FieldContext) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(capability.output)) {
    if (name === into && binding.response.onError) {
      const ok = resourceSchema(binding.response.resource, `capability.output.${name}`, ctx) as z.ZodObject | undefined;
      const failed = resourceSchema(
        binding.response.onError.errorResource,
        'binding.response.onError.errorResource',
        ctx,
      ) as z.ZodObject | undefined;
      if (!ok || !failed) continue;
      const row = z.discriminatedUnion('$row', [
        ok.extend({ $row: z.literal('ok') }),
        failed.extend({ $row: z.literal('error') }),
      ]);
      shape[name] = field.collection ? z.array(row) : row;
      continue;
    }
    const schema = fieldSchema(field, `capability.output.${name}`, ctx);
    if (schema) shape[name] = schema;
  }
  return z.object(shape);
}

function operationBinding(binding: CdlBinding, into: string, provider: string): OperationBinding {
  const { response } = binding;
  const mapping = {
    into,
    ...(response.collection ? { collection: response.collection } : {}),
    map: response.map,
    ...(response.extract ? { extract: response.extract } : {}),
    ...(response.onError ? { onError: { when: response.onError.when, map: response.onError.map } } : {}),
  } as ResponseMapping;
  const connector = binding.connector;
  if (connector.type === 'rest') {
    const rest = connector.rest;
    return {
      connector: restConnector({ name: provider, baseUrl: rest.baseUrl }),
      method: rest.method,
      path: rest.path,
      ...(rest.query ? { query: rest.query } : {}),
      ...(rest.body !== undefined ? { body: rest.body } : {}),
      ...(rest.headers ? { headers: rest.headers } : {}),
      ...(rest.timeoutMs ? { timeoutMs: rest.timeoutMs } : {}),
      response: mapping,
    };
  }
  const sql = connector.sql;
  return {
    connector: sqlConnector({ name: provider, dsn: sql.dsn }),
    sql: sql.query,
    ...(sql.params ? { params: sql.params } : {}),
    ...(sql.identity ? { identity: sql.identity } : {}),
    ...(sql.timeoutMs ? { timeoutMs: sql.timeoutMs } : {}),
    response: mapping,
  };
}

/**
 * Loads a capability manifest in the gateway's own format (CDL): `capabilities.yaml`, `*.capability.yaml`,
 * `*.resource.yaml`, `*.binding.yaml` and `*.policy.yaml` under one directory. Each capability `<namespace>.<name>`
 * becomes the custom operation `<name>` of the resource `<namespace>`, bound to its backend: an ordinary operation of
 * the registry, served by REST, MCP, A2A and agent tools through the one dispatch path, beside TypeScript
 * declarations. Refuses (throws {@link DeclarationValidationError}) with every problem, each naming the file, the path
 * inside it (and its line) and the fix.
 *
 * @example
 * const wanderlust = loadCapabilityManifest({ directory: new URL('./manifest/', import.meta.url), principals: { 'demo:visitor': { kind: 'person', userId } } });
 * defineBackendApplication({ name: 'agency', modules: [wanderlust] });
 */
export function loadCapabilityManifest(options: CapabilityManifestOptions): ResourcesModule {
  const directory = typeof options.directory === 'string' ? options.directory : fileURLToPath(options.directory);
  const relative = path.relative(process.cwd(), directory);
  const label = relative === '' ? '.' : relative.startsWith('..') ? directory : relative;
  const problems: DeclarationProblem[] = [];
  const indexed = classify(readManifestDocuments(directory, label, problems));
  // A document that does not read would make every reference to it a problem too: fix those first.
  if (problems.length > 0) throw new DeclarationValidationError(problems);
  const root = indexed.root;
  if (!root) {
    problems.push({
      declaration: `manifest "${label}"`,
      path: 'capabilities.yaml',
      message: 'no capabilities list: add capabilities.yaml with company: and capabilities:',
    });
    throw new DeclarationValidationError(problems);
  }
  const scope = options.scope ?? ResourcePrimaryScope.ORGANIZATIONS;
  const roles = options.roles ?? [
    scope === ResourcePrimaryScope.ORGANIZATIONS ? CORE_ORG_ROLES.ORG_MEMBER : CORE_APP_ROLES.APP_USER,
  ];
  const listed = new Set(root.value.capabilities);
  root.value.capabilities.forEach((id, i) => {
    if (!indexed.capabilities.has(id))
      root.doc.report(
        ['capabilities', i],
        `no document declares ${id}: add ${id}.capability.yaml, or remove it from the list`,
      );
  });
  for (const { value, doc } of indexed.policies)
    if (!indexed.capabilities.has(value.metadata.capabilityId))
      doc.report('metadata.capabilityId', `no capability ${value.metadata.capabilityId} in this manifest`);
  for (const [id, { doc }] of indexed.bindings)
    if (!indexed.capabilities.has(id)) doc.report('binding.capabilityId', `no capability ${id} in this manifest`);

  const namespaces = new Map<
    string,
    { declaration: AnyResourceDeclaration; bindings: Record<string, OperationBinding> }
  >();
  for (const [id, { value: capability, doc }] of indexed.capabilities) {
    if (!listed.has(id))
      doc.report('capability.id', `${id} is not listed in capabilities.yaml; list it there to serve it`);
    const bound = indexed.bindings.get(id);
    if (!bound) {
      doc.report('capability.id', `${id} has no binding: add a *.binding.yaml with capabilityId: ${id}`);
      continue;
    }
    const [namespace, capabilityName] = id.split('.') as [string, string];
    const name = operationNameOf(capabilityName);
    const report = (at: string, message: string) => (at.startsWith('binding') ? bound.doc : doc).report(at, message);
    const origins = bound.value.origins ?? {};
    const inputCtx: FieldContext = { resources: indexed.resources, namespace, direction: 'input', origins, report };
    const outputCtx: FieldContext = { ...inputCtx, direction: 'output' };
    const requestSchema = objectSchema(capability.input ?? {}, 'capability.input', inputCtx);
    // An output naming an unknown resource is reported once, where it names it; what depends on it is not.
    const reported = problems.length;
    outputSchema(capability, bound.value, undefined, outputCtx);
    if (problems.length > reported) continue;
    const into = intoField(capability, bound.value, outputCtx, bound.doc);
    if (!requestSchema || !into) continue;
    checkExtracted(capability, bound.value, into, doc);
    const responseSchema = outputSchema(capability, bound.value, into, outputCtx);
    const policies = policiesOf(
      capability,
      indexed.policies.filter((p) => p.value.metadata.capabilityId === id).map((p) => p),
      options.principals ?? {},
    );
    const variant: ResourceOperationVariant = {
      variantType: ResourceOperationVariantType.API_CALL,
      isDefault: true,
      roles,
      lifecycle: capability.lifecycle ?? 'stable',
      mcp: { exposed: true },
      ...(policies ? { policies } : {}),
      ...(capability.policies?.includes('human-approval') ? { approval: { required: true } } : {}),
    };
    const entry: { declaration: AnyResourceDeclaration; bindings: Record<string, OperationBinding> } = namespaces.get(
      namespace,
    ) ?? {
      declaration: {
        type: namespace,
        displayName: namespace === root.value.company.id ? root.value.company.name : namespace,
        primaryScope: scope,
        schema: z.object({}),
        customOperations: {},
        operationsConfiguration: {},
      },
      bindings: {},
    };
    namespaces.set(namespace, entry);
    (entry.declaration.customOperations as Record<string, unknown>)[name] = {
      target: 'collection',
      requestSchema,
      responseSchema,
      effect: capability.effect,
      description: capability.description,
      ...(capability.failures ? { failures: capability.failures } : {}),
    };
    (entry.declaration.operationsConfiguration as Record<string, unknown>)[name] = { variants: [variant] };
    entry.bindings[name] = operationBinding(bound.value, into, capability.provider ?? root.value.company.id);
  }
  if (problems.length > 0) throw new DeclarationValidationError(problems);
  const origin = `manifest "${label}"`;
  return {
    name: options.moduleName ?? root.value.company.id,
    resources: [...namespaces.values()].map((entry) => entry.declaration),
    customServiceImplementations: [...namespaces.entries()].map(([namespace, entry]) =>
      boundImplementation(namespace, entry.bindings, origin),
    ),
  };
}
