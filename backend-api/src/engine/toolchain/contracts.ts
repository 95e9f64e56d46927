import { randomUUID } from 'node:crypto';
import { ExecutionContext_ExecutionType } from '@wildo/shared-lib';
import type { z } from 'zod';
import { withEngineModules, type BackendApplicationDefinition } from '../bootstrap/index.js';
import {
  compileBindingsOrThrow,
  ConnectorRuntime,
  ConnectorSetupError,
  declaredBindings,
  operationNameOf,
} from '../connectors/index.js';
import { toFrameworkError } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import {
  compileApplicationResources,
  DeclarationValidationError,
  type CompiledOperation,
  type ExecutionContext,
} from '../resources/index.js';
import { reportablePath } from '../resources/schema/index.js';

// Contracts: what a connector-bound read answered when it was recorded, as paths and types (never values), and what
// it answers now. A recorded contract lives in a committed file beside the declaration; verify reads it and never
// writes a declaration.

/** One path of a backend's answer and its JSON type (`stays[].price: number`); arrays as `[]`, unions as `a|b`. */
export interface RecordedField {
  path: string;
  type: string;
}

/** One capability's entry in a contract file: the fixture input a person chose, and what the answer looked like. */
export interface ContractEntry {
  /** The input the capability is called with (written by a person; `null` until then). */
  input: Record<string, unknown> | null;
  /** The organization a SQL binding's row-level security is read for (SQL bindings only). */
  organizationId?: string;
  /** The answer's paths and types when recorded. */
  answer?: RecordedField[];
  /** SQL: the tables row-level security guarded when recorded, with their policy counts. */
  rls?: { table: string; policies: number }[];
}

/** A contract file: every recorded capability by id (`wanderlust.availability`). */
export interface ContractFile {
  capabilities: Record<string, ContractEntry>;
}

/** Green: as recorded. Yellow: the backend gained fields. Red: lost or retyped fields, a missing value, a failure. */
export type ContractStatus = 'green' | 'yellow' | 'red' | 'unrecorded';

/** The verdict on one capability. */
export interface ContractCheck {
  capability: string;
  status: ContractStatus;
  gained: RecordedField[];
  lost: RecordedField[];
  retyped: { path: string; before: string; after: string }[];
  /** Red reasons beside the fields: a declared value the answer no longer fills, a failed call, row security. */
  problems: string[];
}

/** The paths and types of a JSON value; array elements are merged under `[]`. */
export function fingerprint(value: unknown): RecordedField[] {
  const types = new Map<string, Set<string>>();
  const visit = (node: unknown, path: string, depth: number) => {
    const type = node === null ? 'null' : Array.isArray(node) ? 'array' : typeof node;
    if (path) types.set(path, (types.get(path) ?? new Set()).add(type));
    if (depth > 16) return;
    if (Array.isArray(node)) for (const item of node) visit(item, `${path}[]`, depth + 1);
    else if (node !== null && typeof node === 'object')
      for (const [key, child] of Object.entries(node as Record<string, unknown>))
        visit(child, path ? `${path}.${key}` : key, depth + 1);
  };
  visit(value, '', 0);
  return [...types.entries()]
    .map(([path, set]) => ({ path, type: [...set].sort().join('|') }))
    .sort((a, b) => a.path.localeCompare(b.path));
}

/** Compares an answer's fingerprint with the recorded one. */
export function compareFingerprints(
  recorded: readonly RecordedField[],
  now: readonly RecordedField[],
): Pick<ContractCheck, 'gained' | 'lost' | 'retyped'> {
  const before = new Map(recorded.map((f) => [f.path, f.type]));
  const after = new Map(now.map((f) => [f.path, f.type]));
  const under = (path: string, parents: readonly RecordedField[]) =>
    parents.some((p) => path.startsWith(`${p.path}.`) || path.startsWith(`${p.path}[]`));
  const lost: RecordedField[] = [];
  for (const field of recorded) if (!after.has(field.path) && !under(field.path, lost)) lost.push(field);
  const gained: RecordedField[] = [];
  for (const field of now) if (!before.has(field.path) && !under(field.path, gained)) gained.push(field);
  const retyped: ContractCheck['retyped'] = [];
  for (const [path, type] of after) {
    const was = before.get(path);
    // A type the recording never saw at this path (an element turning from number to string, say) is a retype.
    if (was !== undefined && type.split('|').some((t) => !was.split('|').includes(t)))
      retyped.push({ path, before: was, after: type });
  }
  return { gained, lost, retyped };
}

/** The declared values a mapped answer no longer fills (`availability.roomsFree`). */
export function missingDeclaredValues(schema: z.ZodType, mapped: unknown): string[] {
  const parsed = schema.safeParse(mapped);
  if (parsed.success) return [];
  const missing: string[] = [];
  for (const issue of parsed.error.issues) {
    const path = issue.path.map((segment) => (typeof segment === 'symbol' ? '?' : segment));
    missing.push(`${reportablePath(path)} (${issue.code === 'invalid_type' ? issue.expected : issue.code})`);
  }
  return missing;
}

/** The verdict from the comparisons: red wins, then yellow. */
export function statusOf(check: Omit<ContractCheck, 'status' | 'capability'>): ContractStatus {
  if (check.lost.length > 0 || check.retyped.length > 0 || check.problems.length > 0) return 'red';
  return check.gained.length > 0 ? 'yellow' : 'green';
}

/** A connector-bound read an operator can record and verify. */
export interface RecordableCapability {
  id: string;
  resourceType: string;
  operation: CompiledOperation;
  kind: 'rest' | 'sql';
  /** Where its binding was declared (`manifest "..."`, `module "..."`). */
  origin?: string;
}

/** Calls bound reads as the engine does, for recording and verifying (no server, no database of the application). */
export interface ContractRunner {
  readonly capabilities: readonly RecordableCapability[];
  /** Problems refusing a SQL binding at start (row-level security), by capability id: each is red. */
  readonly setupProblems: ReadonlyMap<string, readonly string[]>;
  call(capability: RecordableCapability, entry: ContractEntry): Promise<{ answer: unknown; mapped: unknown }>;
  tables(capability: RecordableCapability): readonly { name: string; policies: number }[] | undefined;
  close(): Promise<void>;
}

/** Starts the connectors of an application's bound reads (validated as at start). */
export async function openContractRunner(options: {
  application: BackendApplicationDefinition;
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
}): Promise<ContractRunner> {
  const full = withEngineModules(options.application);
  const compiled = compileApplicationResources(full);
  if (compiled.problems.length > 0) throw new DeclarationValidationError(compiled.problems);
  const bindings = compileBindingsOrThrow(full, compiled.resources);
  const origins = new Map(declaredBindings(full).map((b) => [`${b.resourceType}.${b.operation}`, b.origin]));
  const capabilities: RecordableCapability[] = bindings
    .filter((b) => b.operation.effect === 'read')
    .map((b) => ({
      id: capabilityIdOf(b.operation, origins.get(b.key)),
      resourceType: b.operation.resourceType,
      operation: b.operation,
      kind: b.kind,
      ...(origins.get(b.key) ? { origin: origins.get(b.key) as string } : {}),
    }))
    .sort((a, b) => a.id.localeCompare(b.id));
  const setupProblems = new Map<string, string[]>();
  const start = (selected: typeof bindings) =>
    ConnectorRuntime.start({ bindings: selected, env: options.env, logger: options.logger, production: false });
  let runtime: ConnectorRuntime;
  try {
    runtime = await start(bindings);
  } catch (error) {
    if (!(error instanceof ConnectorSetupError)) throw error;
    // Row security refused a SQL binding: each SQL capability is red with the problems; REST ones still run.
    for (const capability of capabilities.filter((c) => c.kind === 'sql'))
      setupProblems.set(capability.id, [...error.problems]);
    runtime = await start(bindings.filter((b) => b.kind === 'rest'));
  }
  return {
    capabilities,
    setupProblems,
    call: (capability, entry) =>
      runtime.answer(
        capability.resourceType,
        capability.operation.operation,
        entry.input ?? {},
        verifierContext(entry),
      ),
    tables: (capability) => runtime.protectedTables(capability.resourceType, capability.operation.operation),
    close: () => runtime.close(),
  };
}

/** A manifest capability keeps its own id (`wanderlust.search`, not the operation `search-capability`). */
function capabilityIdOf(operation: CompiledOperation, origin: string | undefined): string {
  const suffix = '-capability';
  const name = operation.operation;
  if (origin?.startsWith('manifest') && name.endsWith(suffix)) {
    const capability = name.slice(0, -suffix.length);
    if (operationNameOf(capability) === name) return operation.servicePath.replace(name, capability);
  }
  return operation.servicePath;
}

/** The caller a recording runs as: the toolchain itself, in the entry's organization (for row-level security). */
function verifierContext(entry: ContractEntry): ExecutionContext {
  const organizationId = entry.organizationId;
  return {
    executionType: ExecutionContext_ExecutionType.ORGANIZATION_MACHINE,
    initiatorIds: { clientId: 'wildo-verify', ...(organizationId ? { organizationId } : {}) },
    initiatorRoles: [],
    tenant: organizationId ? { kind: 'organization', organizationId } : { kind: 'application' },
    surface: 'internal',
    requestId: randomUUID(),
    callTimestamp: new Date().toISOString(),
    principal: {
      kind: 'machine',
      executionType: ExecutionContext_ExecutionType.ORGANIZATION_MACHINE,
      clientId: 'wildo-verify',
      ...(organizationId ? { organizationId } : {}),
      roles: [],
      credential: { type: 'client_token', id: 'wildo-verify' },
    },
  };
}

/** Why a call failed, in one line (never the backend's own words). */
export function callFailure(error: unknown): string {
  const framework = toFrameworkError(error);
  const status = framework.upstreamStatus;
  return `the call failed: ${framework.code}${status !== undefined ? ` (backend status ${status})` : ''}`;
}
