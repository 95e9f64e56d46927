import { expect } from 'vitest';
import { FrameworkError } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import type { RecordCreator, ResourceStore, ResourceStoreDefinition, TenantScope } from './resource-store.js';

/** A store opened for the contract suite, with a way to open a second replica on the same data. */
export interface ResourceStoreHarness {
  store: ResourceStore;
  /** Another store on the same data, as a second replica would open it (own connections where the backend has them). */
  openReplica(): Promise<ResourceStore>;
  /** Closes the store, its replicas and whatever the harness created (schemas, databases). */
  close(): Promise<void>;
}

/** Opens a harness whose stores take their timestamps from `now`. */
export type OpenResourceStoreHarness = (options: { now: () => Date }) => Promise<ResourceStoreHarness>;

/** A clock the suite moves by hand. */
export class TestClock {
  private current = new Date('2030-01-01T00:00:00.000Z');
  readonly now = (): Date => new Date(this.current.getTime());
  set(iso: string): void {
    this.current = new Date(iso);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** What every contract group gets: the open store, the clock and fresh resource types. */
export interface ContractContext {
  store(): ResourceStore;
  harness(): ResourceStoreHarness;
  clock: TestClock;
  /** A new resource type (unique within the run), its table created. */
  freshDefinition(overrides?: Partial<ResourceStoreDefinition>): Promise<ResourceStoreDefinition>;
}

/** Organization A: owns the records the isolation tests try to reach from elsewhere. */
export const orgA: TenantScope = { kind: 'organization', organizationId: 'org_a' };
/** Organization B: the outsider. */
export const orgB: TenantScope = { kind: 'organization', organizationId: 'org_b' };
/** User U's personal scope. */
export const userU: TenantScope = { kind: 'user', userId: 'user_u' };
/** User V's personal scope: the outsider for user records. */
export const userV: TenantScope = { kind: 'user', userId: 'user_v' };
/** The application-wide scope (records of no organization and no user). */
export const application: TenantScope = { kind: 'application' };

/** A user principal as creator. */
export function byUser(userId: string): RecordCreator {
  return { userId, principalType: 'user', principalId: userId };
}

/** A machine principal (API key) as creator. */
export const byMachine: RecordCreator = { userId: null, principalType: 'api_key', principalId: 'key_1' };

let typeCounter = 0;

/** A todo-like definition with string, number and boolean filters and two search fields. */
export function todoDefinition(overrides: Partial<ResourceStoreDefinition> = {}): ResourceStoreDefinition {
  typeCounter += 1;
  return {
    resourceType: `todo-items-${typeCounter}`,
    scope: 'organization',
    filterFields: [
      { name: 'status', kind: 'string' },
      { name: 'priority', kind: 'number' },
      { name: 'done', kind: 'boolean' },
    ],
    searchFields: ['title', 'body'],
    ...overrides,
  };
}

/** Expects a `VALIDATION_FAILED` refusal at `path` whose client-facing text does not contain `secret`. */
export async function expectValidationFailed(promise: Promise<unknown>, path: string, secret?: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(FrameworkError);
  const framework = error as FrameworkError;
  expect(framework.code).toBe('VALIDATION_FAILED');
  expect(framework.reason).toBe('input_invalid');
  expect(framework.problems?.map((problem) => problem.path)).toEqual([path]);
  if (secret !== undefined)
    expect(JSON.stringify({ message: framework.message, problems: framework.problems })).not.toContain(secret);
}

/** Ids of records, in order. */
export function ids(records: readonly { id: string }[]): string[] {
  return records.map((record) => record.id);
}

/** One line a {@link createRecordingLogger} logger received. */
export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown>;
}

/** A logger that keeps its lines, for tests that assert what was logged. */
export function createRecordingLogger(lines: LogLine[] = []): Logger & { lines: LogLine[] } {
  const record =
    (level: LogLine['level']) =>
    (message: string, fields: Record<string, unknown> = {}) => {
      lines.push({ level, message, fields });
    };
  return {
    lines,
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    child: () => createRecordingLogger(lines),
  };
}
