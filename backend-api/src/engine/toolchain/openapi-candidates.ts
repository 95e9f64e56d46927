import { readFile } from 'node:fs/promises';
import { compileErrors, dereference, validate } from '@readme/openapi-parser';
import { parse as parseYaml } from 'yaml';
import { fieldsOfJsonSchema, type FieldShape } from './schema-fields.js';

// Candidates from an OpenAPI description (3.0 or 3.1): one per operation, its inputs (parameters and the JSON
// body) and its output (the JSON of the first 2xx answer), every `$ref` and `allOf` resolved. A candidate's effect
// is never guessed from its method: it stays undecided until a person (or their decisions file) sets it.

/** What a capability does to the world, as a person decides it; `skip` leaves the operation out. */
export const CANDIDATE_EFFECTS = ['read', 'write', 'destructive', 'irreversible', 'skip'] as const;
/** One of {@link CANDIDATE_EFFECTS}. */
export type CandidateEffect = (typeof CANDIDATE_EFFECTS)[number];

/** One operation of the description, as a capability it could become. */
export interface CapabilityCandidate {
  /** The operationId, else `<method>-<path>` in kebab case. */
  id: string;
  method: string;
  path: string;
  summary?: string;
  /** Parameters (`path.stayId`, `query.limit`) and body fields (`body.dates.from`). */
  input: FieldShape[];
  output: FieldShape[];
  /** Undecided until a decision sets it. */
  effect: CandidateEffect | 'undecided';
}

/** An OpenAPI description that could not be read: one line per problem. */
export class OpenApiDescriptionError extends Error {
  override readonly name = 'OpenApiDescriptionError';
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

type Json = Record<string, unknown>;

/** Refuses a `$ref` that would be fetched over the network: init reads local files only. */
function refuseRemoteRefs(node: unknown, where = '#'): void {
  if (Array.isArray(node)) node.forEach((item, i) => refuseRemoteRefs(item, `${where}/${i}`));
  else if (node !== null && typeof node === 'object')
    for (const [key, value] of Object.entries(node as Json)) {
      if (key === '$ref' && typeof value === 'string' && /^[a-z][a-z0-9+.-]*:/i.test(value))
        throw new OpenApiDescriptionError(`${where}/$ref points at ${value}: only local references are followed`);
      refuseRemoteRefs(value, `${where}/${key}`);
    }
}

function kebab(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
}

function jsonSchemaOf(content: unknown): Json | undefined {
  const media = (content ?? {}) as Record<string, { schema?: Json }>;
  const key = Object.keys(media).find((type) => /^application\/(.+\+)?json/.test(type));
  return key ? media[key]?.schema : undefined;
}

/** Reads, validates and resolves an OpenAPI 3.0 or 3.1 description, and lists one candidate per operation. */
export async function openApiCandidates(file: string): Promise<CapabilityCandidate[]> {
  let raw: unknown;
  try {
    raw = parseYaml(await readFile(file, 'utf8'));
  } catch (error) {
    throw new OpenApiDescriptionError(`${file} is not readable YAML or JSON: ${(error as Error).message}`);
  }
  const version = (raw as { openapi?: unknown } | null)?.openapi;
  if (typeof version !== 'string' || !/^3\.[01]\./.test(version))
    throw new OpenApiDescriptionError(`${file} is not an OpenAPI 3.0 or 3.1 description (openapi: 3.0.x or 3.1.x)`);
  refuseRemoteRefs(raw);
  const validation = await validate(file);
  if (!validation.valid) throw new OpenApiDescriptionError(compileErrors(validation));
  const api = (await dereference(file)) as { paths?: Record<string, Record<string, Json> | undefined> };
  const candidates: CapabilityCandidate[] = [];
  for (const [route, item] of Object.entries(api.paths ?? {})) {
    if (!item) continue;
    const shared = (item.parameters ?? []) as Json[];
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = [...shared, ...((operation.parameters ?? []) as Json[])];
      const input: FieldShape[] = [];
      for (const parameter of parameters) {
        const where = parameter.in as string;
        if (where !== 'path' && where !== 'query') continue;
        const schema = (parameter.schema ?? {}) as Json;
        const base = `${where}.${parameter.name as string}`;
        input.push({ path: base, type: fieldsTypeOf(schema), required: parameter.required === true });
        input.push(...fieldsOfJsonSchema(schema).map((f) => ({ ...f, path: `${base}.${f.path}` })));
      }
      const body = operation.requestBody as Json | undefined;
      const bodySchema = jsonSchemaOf(body?.content);
      if (bodySchema) input.push(...fieldsOfJsonSchema(bodySchema).map((f) => ({ ...f, path: `body.${f.path}` })));
      const responses = (operation.responses ?? {}) as Record<string, Json>;
      const success = Object.keys(responses)
        .filter((status) => /^2\d\d$/.test(status))
        .sort()[0];
      const outputSchema = success ? jsonSchemaOf(responses[success]?.content) : undefined;
      candidates.push({
        id: typeof operation.operationId === 'string' ? kebab(operation.operationId) : kebab(`${method} ${route}`),
        method: method.toUpperCase(),
        path: route,
        ...(typeof operation.summary === 'string' ? { summary: operation.summary } : {}),
        input,
        output: outputSchema ? fieldsOfJsonSchema(outputSchema) : [],
        effect: 'undecided',
      });
    }
  }
  return candidates.sort((a, b) => a.id.localeCompare(b.id));
}

function fieldsTypeOf(schema: Json): string {
  const [root] = fieldsOfJsonSchema({ type: 'object', properties: { x: schema } });
  return root?.type ?? 'any';
}

/** Decisions a person made, by candidate id: its effect. */
export type CandidateDecisions = Readonly<Record<string, CandidateEffect>>;

/** The candidates with their decided effects; the ids without a decision are returned apart. */
export function applyDecisions(
  candidates: readonly CapabilityCandidate[],
  decisions: CandidateDecisions,
): { decided: CapabilityCandidate[]; undecided: string[]; unknown: string[] } {
  const ids = new Set(candidates.map((c) => c.id));
  const decided: CapabilityCandidate[] = [];
  const undecided: string[] = [];
  for (const candidate of candidates) {
    const effect = decisions[candidate.id];
    if (effect === undefined || !CANDIDATE_EFFECTS.includes(effect)) undecided.push(candidate.id);
    else if (effect !== 'skip') decided.push({ ...candidate, effect });
  }
  return { decided, undecided, unknown: Object.keys(decisions).filter((id) => !ids.has(id)) };
}
