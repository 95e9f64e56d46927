import type { HttpResult } from './http-client.js';

/** The engine's error envelope: `{ error: { code, message, reason?, problems?, requestId } }`. */
export interface ErrorEnvelope {
  code: string;
  message: string;
  reason?: string;
  problems?: { path: string; expected: string }[];
  requestId?: string;
}

/** A stored record as the API returns it (system fields plus the resource's own). */
export interface ApiRecord extends Record<string, unknown> {
  _id: string;
  version: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The error envelope of a response, or undefined when the body has none. */
export function errorOf(res: HttpResult): ErrorEnvelope | undefined {
  const error = isObject(res.body) ? res.body['error'] : undefined;
  return isObject(error) && typeof error['code'] === 'string' ? (error as unknown as ErrorEnvelope) : undefined;
}

/** The `data` member of a success envelope (undefined when absent). */
export function dataOf(res: HttpResult): unknown {
  return isObject(res.body) ? res.body['data'] : undefined;
}

/** The `data` of a record response, when it is one. */
export function recordOf(res: HttpResult): ApiRecord | undefined {
  const data = dataOf(res);
  return isObject(data) && typeof data['_id'] === 'string' ? (data as ApiRecord) : undefined;
}

/** The records of a page response (`{ data: [...], nextCursor }`); empty when the body is not a page. */
export function recordsOf(res: HttpResult): ApiRecord[] {
  const data = dataOf(res);
  return Array.isArray(data)
    ? data.filter((item): item is ApiRecord => isObject(item) && typeof item['_id'] === 'string')
    : [];
}

/** The `nextCursor` of a page response (null at the end, undefined when the body is not a page). */
export function nextCursorOf(res: HttpResult): string | null | undefined {
  const cursor = isObject(res.body) ? res.body['nextCursor'] : undefined;
  return typeof cursor === 'string' || cursor === null ? cursor : undefined;
}

/**
 * A one-line description of a response for a check's detail: status, error code, reason and request id.
 * It deliberately leaves the body out (a success body can hold an access token).
 */
export function describeResponse(res: HttpResult): string {
  const error = errorOf(res);
  const parts = [`status ${res.status}`];
  if (error) {
    parts.push(`code ${error.code}`);
    if (error.reason) parts.push(`reason ${error.reason}`);
    if (error.requestId) parts.push(`requestId ${error.requestId}`);
  }
  return parts.join(', ');
}

/** The needles (probe markers, foreign titles, ids) that appear anywhere in the raw response, headers included. */
export function disclosedAmong(res: HttpResult, needles: readonly string[]): string[] {
  const headerText = [...res.headers.entries()].map(([name, value]) => `${name}: ${value}`).join('\n');
  const haystack = `${headerText}\n${res.text}`.toLowerCase();
  return needles.filter((needle) => needle !== '' && haystack.includes(needle.toLowerCase()));
}

/** What a refusal must look like. */
export interface ExpectedRefusal {
  status: number;
  code: string;
  reason?: string;
  /** Values the body and headers must not contain (submitted values, foreign data, names that are not identifiers). */
  mustNotDisclose?: readonly string[];
  /** Paths the refusal's problems must name (undeclared and read-only fields are named; their values never). */
  problemPaths?: readonly string[];
}

/**
 * Why `res` is not the expected refusal, or undefined when it is. Used as a check's detail, so it names
 * what differed and which kind of needle leaked, never the raw body.
 */
export function refusalMismatch(res: HttpResult, expected: ExpectedRefusal): string | undefined {
  const problems: string[] = [];
  const error = errorOf(res);
  if (res.status !== expected.status) problems.push(`expected status ${expected.status}`);
  if (error?.code !== expected.code) problems.push(`expected code ${expected.code}`);
  if (expected.reason !== undefined && error?.reason !== expected.reason)
    problems.push(`expected reason ${expected.reason}`);
  const named = new Set((error?.problems ?? []).map((problem) => problem.path));
  const unnamed = (expected.problemPaths ?? []).filter((path) => !named.has(path));
  if (unnamed.length > 0) problems.push(`expected problems at ${unnamed.length} more path(s)`);
  const leaked = disclosedAmong(res, expected.mustNotDisclose ?? []);
  if (leaked.length > 0)
    problems.push(`response discloses ${leaked.length} forbidden value(s): ${leaked.map(redactNeedle).join(', ')}`);
  return problems.length === 0 ? undefined : `${describeResponse(res)}; ${problems.join('; ')}`;
}

// Needles are probe markers and test titles (never credentials); long ones are shortened for the report.
function redactNeedle(needle: string): string {
  return needle.length > 40 ? `${needle.slice(0, 32)}…` : needle;
}
