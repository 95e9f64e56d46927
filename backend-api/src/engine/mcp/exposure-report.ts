import { describeA2aAgents, type A2aAgentExposure } from '../a2a/index.js';
import { listAgentTools } from '../agents/systems/index.js';
import type { McpApplication } from './mcp-module.js';
import type { ResourcesRegistry } from '../resources/index.js';
import type { McpCustomTool } from './mcp-tools.types.js';
import type { McpToolCatalogue, McpOmission, McpOmissionReason, McpToolEntry } from './tool-catalogue.service.js';
import { toolNameOf } from './tool-naming.js';
import { instancePath, MCP_PATH } from '../urls/index.js';

/** The label of the default `/mcp` catalogue in reports (named instances keep their ref). */
export const DEFAULT_CATALOGUE_LABEL = 'default';

/**
 * Where an operation stands on MCP: `exposed` (listed and callable), `unlisted` (experimental: callable by
 * name, not listed), `blocked` (retired: kept so a call by name is refused) or `not-exposed`.
 */
export type McpExposureStatus = 'exposed' | 'unlisted' | 'blocked' | 'not-exposed';

/** A field a model sends or is shown: its path (`checklist[].label`), JSON type(s) and whether it is required. */
export interface ExposureField {
  path: string;
  /** JSON Schema type names, `|`-joined (`string | null`); `any` when the schema does not say. */
  type: string;
  required: boolean;
}

/** Why a tool is not on a catalogue. */
export interface ExposureReason {
  code: McpOmissionReason;
  detail: string;
  /** The catalogue concerned when only that one is (a name clash, an unknown instance). */
  catalogue?: string;
}

/** The MCP side of one operation variant or module tool. */
export interface ToolExposure {
  tool: string;
  status: McpExposureStatus;
  /** Catalogues holding the tool (`default` or instance refs): listed there, or callable by name only. */
  catalogues: string[];
  /** Why it is not exposed, or not on some catalogue it was meant for. */
  reasons: ExposureReason[];
  /** The tool's input arguments; absent when there is no tool. */
  sends?: ExposureField[];
  /** The tool's output paths; `null` when the tool declares no output schema (the result is text only). */
  shown?: ExposureField[] | null;
}

/** One declared operation variant and its exposure. */
export interface OperationExposure extends ToolExposure {
  resourceType: string;
  operation: string;
  variant: string;
  servicePath: string;
  scope: string;
  roles: string[];
  lifecycle: string;
}

/** A tool a module contributes directly (not derived from an operation). */
export interface ModuleToolExposure extends ToolExposure {
  module: string;
}

/** A tool an agent's model is offered (a function tool, or an external MCP server's tools, discovered at run time). */
export interface AgentToolExposure {
  agent: string;
  module: string;
  /** The name the model sees and calls. */
  tool: string;
  functionRef: string;
  /** The resource operation it dispatches (`todos.update`), when it is a resource tool. */
  operation?: string;
  /** Declared on the tool (a system access entry with `requiresApproval` also gates every call). */
  requiresHumanApproval: boolean;
  readOnly: boolean;
  /** The arguments the model sends; absent for an external server's tools. */
  sends?: ExposureField[];
}

/** A catalogue the application serves. */
export interface ExposureCatalogue {
  name: string;
  /** Path below `/api/v1`. */
  endpoint: string;
}

/** What the application exposes over MCP, for every declared operation variant (engine modules included), and what its agents' models are offered. */
export interface ExposureReport {
  version: 1;
  application: string;
  catalogues: ExposureCatalogue[];
  /** Sorted by resource type, operation, variant. */
  operations: OperationExposure[];
  /** Sorted by tool name, module. */
  moduleTools: ModuleToolExposure[];
  /** What each agent's model is offered, sorted by agent, then tool name. */
  agentTools: AgentToolExposure[];
  /** The A2A agents (the default one first) and the actor systems each exposes as skills. */
  a2aAgents: A2aAgentExposure[];
}

/**
 * Reports a catalogue already built (`application` must be the one it was built from, engine modules included).
 * Every status and every "exposed on" comes from the catalogue itself.
 */
export function describeExposure(
  registry: ResourcesRegistry,
  application: McpApplication,
  catalogue: McpToolCatalogue,
): ExposureReport {
  const labelled = [...catalogue.all()].map(([ref, tools]) => ({ name: labelOf(ref), tools }));
  const omissions = catalogue.omissions();
  const operations = registry.listOperations().map((operation): OperationExposure => {
    const tool = toolNameOf(operation.resourceType, operation.operation);
    // Held where the entry under its name is bound to this very variant (not merely to a tool of the same name).
    const holders = labelled.filter(({ tools }) => tools.get(tool)?.resource?.operation === operation);
    return {
      resourceType: operation.resourceType,
      operation: operation.operation,
      variant: operation.variantKey,
      servicePath: operation.servicePath,
      scope: operation.scope,
      roles: [...operation.roles].sort(compare),
      lifecycle: operation.lifecycle,
      ...toolExposure(
        tool,
        holders[0]?.tools.get(tool),
        holders.map((h) => h.name),
        omissions.filter((o) => o.servicePath === operation.servicePath),
      ),
    };
  });
  const moduleTools = application.modules.flatMap((module) =>
    (module.mcpTools ?? []).map((tool): ModuleToolExposure => {
      const holders = labelled.filter(({ tools }) => tools.get(tool.descriptor.name)?.custom === tool);
      const mine = omissions.filter(
        (o) => o.servicePath === undefined && o.tool === tool.descriptor.name && concerns(o, tool, catalogue),
      );
      return {
        module: module.name,
        ...toolExposure(
          tool.descriptor.name,
          holders[0]?.tools.get(tool.descriptor.name),
          holders.map((h) => h.name),
          mine,
        ),
      };
    }),
  );
  return {
    version: 1,
    application: application.name,
    catalogues: [...catalogue.all().keys()]
      .map((ref) => ({ name: labelOf(ref), endpoint: instancePath(MCP_PATH, ref) }))
      .sort((a, b) => compareCatalogues(a.name, b.name)),
    operations: operations.sort(
      (a, b) =>
        compare(a.resourceType, b.resourceType) || compare(a.operation, b.operation) || compare(a.variant, b.variant),
    ),
    moduleTools: moduleTools.sort((a, b) => compare(a.tool, b.tool) || compare(a.module, b.module)),
    agentTools: describeAgentTools(application),
    a2aAgents: describeA2aAgents(application),
  };
}

/** The agents' tools with the fields their models send, in a stable order. */
function describeAgentTools(application: McpApplication): AgentToolExposure[] {
  return listAgentTools(application)
    .map(({ inputSchema, ...listing }): AgentToolExposure => ({
      ...listing,
      ...(inputSchema ? { sends: fieldsOf(inputSchema) } : {}),
    }))
    .sort((a, b) => compare(a.agent, b.agent) || compare(a.tool, b.tool));
}

function toolExposure(
  tool: string,
  entry: McpToolEntry | undefined,
  catalogues: string[],
  omissions: readonly McpOmission[],
): ToolExposure {
  const reasons = omissions
    .map((o): ExposureReason => ({
      code: o.reason,
      detail: o.detail,
      ...(o.instance !== undefined ? { catalogue: labelOf(o.instance) } : {}),
    }))
    .sort((a, b) => compare(a.catalogue ?? '', b.catalogue ?? '') || compare(a.code, b.code));
  if (!entry) return { tool, status: 'not-exposed', catalogues: [], reasons };
  const lifecycle = entry.resource?.operation.lifecycle;
  return {
    tool,
    status: entry.listed ? 'exposed' : lifecycle === 'retired' ? 'blocked' : 'unlisted',
    catalogues: catalogues.sort(compareCatalogues),
    reasons,
    sends: fieldsOf(entry.descriptor.inputSchema),
    shown: entry.descriptor.outputSchema ? fieldsOf(entry.descriptor.outputSchema) : null,
  };
}

/** Whether a module tool's omission on one catalogue is about this tool (several tools may share a name). */
function concerns(omission: McpOmission, tool: McpCustomTool, catalogue: McpToolCatalogue): boolean {
  if (omission.instance === undefined) return true;
  const meant = tool.servers && tool.servers.length > 0 ? tool.servers : [''];
  return (
    meant.includes(omission.instance) &&
    catalogue.catalogue(omission.instance || undefined)?.get(tool.descriptor.name)?.custom !== tool
  );
}

function labelOf(ref: string): string {
  return ref === '' ? DEFAULT_CATALOGUE_LABEL : ref;
}

/** Code-unit order: the same on every machine and locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The default catalogue first, then instances by ref. */
function compareCatalogues(a: string, b: string): number {
  return Number(b === DEFAULT_CATALOGUE_LABEL) - Number(a === DEFAULT_CATALOGUE_LABEL) || compare(a, b);
}

type JsonSchema = Record<string, unknown>;

/**
 * The paths of an object schema's properties with their JSON types, depth first and sorted by path: names and
 * types only (no defaults, examples, enums or constants). Arrays add `[]` (`checklist[].label`), maps `.*`.
 */
export function fieldsOf(schema: JsonSchema): ExposureField[] {
  const fields: ExposureField[] = [];
  for (const branch of objectBranches(schema, schema, new Set()))
    collectProperties(branch.node, '', schema, branch.refs, fields);
  const byPath = new Map<string, ExposureField>();
  for (const field of fields) {
    const seen = byPath.get(field.path);
    // Two union branches declaring the same path: one line, the types merged, required only if both require it.
    byPath.set(
      field.path,
      seen
        ? { path: field.path, type: mergeTypes(seen.type, field.type), required: seen.required && field.required }
        : field,
    );
  }
  return [...byPath.values()].sort((a, b) => compare(a.path, b.path));
}

function collectProperties(
  node: JsonSchema,
  prefix: string,
  root: JsonSchema,
  refs: ReadonlySet<string>,
  out: ExposureField[],
): void {
  const properties = isObject(node.properties) ? node.properties : {};
  const required = new Set(Array.isArray(node.required) ? node.required : []);
  for (const [name, child] of Object.entries(properties)) {
    if (isObject(child)) collectValue(child, `${prefix}${name}`, required.has(name), root, refs, out);
  }
  if (isObject(node.additionalProperties))
    collectValue(node.additionalProperties, `${prefix}*`, false, root, refs, out);
}

function collectValue(
  node: JsonSchema,
  path: string,
  required: boolean,
  root: JsonSchema,
  refs: ReadonlySet<string>,
  out: ExposureField[],
): void {
  const branches = branchesOf(node, root, refs);
  out.push({ path, type: typeNames(branches.map((b) => b.node)), required });
  for (const branch of branches) {
    if (branch.recursive) continue;
    if (typesOf(branch.node).includes('object')) collectProperties(branch.node, `${path}.`, root, branch.refs, out);
    if (typesOf(branch.node).includes('array') && isObject(branch.node.items))
      collectItems(branch.node.items, `${path}[]`, root, branch.refs, out);
  }
}

/** Array items: an object's properties go straight under `path[]`; anything else also gets its own `path[]` line. */
function collectItems(
  node: JsonSchema,
  path: string,
  root: JsonSchema,
  refs: ReadonlySet<string>,
  out: ExposureField[],
): void {
  const branches = branchesOf(node, root, refs);
  const types = typeNames(branches.map((b) => b.node));
  if (types !== 'object') out.push({ path, type: types, required: true });
  for (const branch of branches) {
    if (branch.recursive) continue;
    if (typesOf(branch.node).includes('object')) collectProperties(branch.node, `${path}.`, root, branch.refs, out);
    if (typesOf(branch.node).includes('array') && isObject(branch.node.items))
      collectItems(branch.node.items, `${path}[]`, root, branch.refs, out);
  }
}

interface Branch {
  node: JsonSchema;
  /** `$ref`s followed to reach it (a cycle stops the descent). */
  refs: ReadonlySet<string>;
  recursive: boolean;
}

/** The alternatives of a schema: `anyOf`/`oneOf` branches flattened, `$ref`s resolved in the root. */
function branchesOf(node: JsonSchema, root: JsonSchema, refs: ReadonlySet<string>): Branch[] {
  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    const target = resolveRef(root, ref);
    if (!target) return [{ node: {}, refs, recursive: true }];
    if (refs.has(ref)) return [{ node: target, refs, recursive: true }];
    return branchesOf(target, root, new Set([...refs, ref]));
  }
  const alternatives = [node.anyOf, node.oneOf].find(Array.isArray);
  if (alternatives) return alternatives.filter(isObject).flatMap((alternative) => branchesOf(alternative, root, refs));
  return [{ node, refs, recursive: false }];
}

function objectBranches(node: JsonSchema, root: JsonSchema, refs: ReadonlySet<string>): Branch[] {
  return branchesOf(node, root, refs).filter((b) => typesOf(b.node).includes('object'));
}

function resolveRef(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    node = isObject(node) ? node[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  }
  return isObject(node) ? node : undefined;
}

/** The JSON types a schema node admits, from `type`, or from the kind of its `const`/`enum` (never the values). */
function typesOf(node: JsonSchema): string[] {
  if (typeof node.type === 'string') return [node.type];
  if (Array.isArray(node.type)) return node.type.filter((t): t is string => typeof t === 'string');
  const values = 'const' in node ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
  if (values) return [...new Set(values.map(jsonTypeOfValue))];
  if (isObject(node.properties)) return ['object'];
  if (isObject(node.items)) return ['array'];
  return ['any'];
}

function jsonTypeOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeNames(nodes: JsonSchema[]): string {
  return mergeTypes(...nodes.map((node) => typesOf(node).join(' | ')));
}

/** `a | b` lists merged without repeats; `null` last so nullable fields read `string | null`. */
function mergeTypes(...lists: string[]): string {
  const types = [...new Set(lists.flatMap((list) => list.split(' | ')))];
  return [...types.filter((t) => t !== 'null'), ...types.filter((t) => t === 'null')].join(' | ');
}

function isObject(value: unknown): value is JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
