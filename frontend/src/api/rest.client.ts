import * as z from 'zod/mini';
import { requestJson } from './api.client';

/** A record as the resource routes return it: an `_id` and the declared fields (read loosely, shown as text). */
export type ApiRecord = { _id: string } & Record<string, unknown>;

const RecordSchema: z.ZodMiniType<ApiRecord> = z.catchall(z.object({ _id: z.string() }), z.unknown());
const DataSchema = z.object({ data: z.unknown() });
const RecordBodySchema = z.object({ data: RecordSchema });
const PageSchema = z.object({ data: z.array(RecordSchema), nextCursor: z.nullish(z.string()) });

/** A record field as text (strings and numbers as they are, anything else as `fallback`). */
export function textOf(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : fallback;
}

/** One page of a LIST: the records and the cursor of the next page (`null` on the last). */
export interface RecordPage {
  records: ApiRecord[];
  nextCursor: string | null;
}

/** Options of the calls below: the signed-in person's token, and a step-up proof when the operation needs one. */
export interface CallOptions {
  accessToken: string;
  signal?: AbortSignal;
  reAuthToken?: string;
}

function headersOf(options: CallOptions): Record<string, string> | undefined {
  return options.reAuthToken ? { 'x-reauth-token': options.reAuthToken } : undefined;
}

/** `GET <path>?<query>`: one page of a resource's LIST (declared filters, `limit`, `cursor`). */
export async function listRecords(
  path: string,
  query: Record<string, string | undefined>,
  options: CallOptions,
): Promise<RecordPage> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, value);
  const search = params.toString();
  const body = await requestJson(search ? `${path}?${search}` : path, {
    accessToken: options.accessToken,
    signal: options.signal,
    schema: PageSchema,
  });
  return { records: body.data, nextCursor: body.nextCursor ?? null };
}

/** `POST <path>/search`: one page of a resource's SEARCH (words, declared filters as JSON values, `limit`, `cursor`). */
export async function searchRecords(
  path: string,
  body: { query: string; filters?: Record<string, unknown>; limit?: number; cursor?: string },
  options: CallOptions,
): Promise<RecordPage> {
  const answer = await requestJson(path, {
    method: 'POST',
    body,
    accessToken: options.accessToken,
    signal: options.signal,
    schema: PageSchema,
  });
  return { records: answer.data, nextCursor: answer.nextCursor ?? null };
}

/** A write that answers one record (`POST` create, `PUT` update, custom instance operations). */
export async function writeRecord(
  method: 'POST' | 'PUT',
  path: string,
  body: unknown,
  options: CallOptions,
): Promise<ApiRecord> {
  const answer = await requestJson(path, {
    method,
    body,
    accessToken: options.accessToken,
    signal: options.signal,
    headers: headersOf(options),
    schema: RecordBodySchema,
  });
  return answer.data;
}

/** Any call whose `data` the caller reads itself (deletes, identity routes). */
export async function callApi(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: CallOptions & { body?: unknown },
): Promise<unknown> {
  const answer = await requestJson(path, {
    method,
    body: options.body,
    accessToken: options.accessToken,
    signal: options.signal,
    headers: headersOf(options),
    schema: DataSchema,
  });
  return answer.data;
}
