import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { BearerToken } from './bearer-token.js';

/** One answered exchange, as a probe sees it: status, headers and the body (parsed when it is JSON). */
export interface HttpResult {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or `undefined` when the body is empty or not JSON. */
  body: unknown;
  /** The raw body text (what leak checks search). */
  text: string;
}

/** What one request sends; `json` and `rawBody` are exclusive. */
export interface HttpRequestOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: BearerToken;
  /** A raw `Authorization` header value (for forged or foreign schemes); wins over `token`. */
  authorization?: string;
  /** Serialized as JSON with `content-type: application/json`. */
  json?: unknown;
  /** Sent as is (malformed JSON, other media types); pair it with a `content-type` header. */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Query parameters, appended in order (repeat a name by repeating the pair). */
  query?: readonly (readonly [string, string])[];
}

/** One line of the exchange ledger: enough to name a response, never its credentials or body. */
export interface ExchangeRecord {
  method: string;
  /** The path without its query string, shortened when long. */
  path: string;
  status: number;
}

/** A tiny JSON client bound to a base URL that records the status of every response it receives. */
export interface HttpClient {
  readonly baseUrl: string;
  /** Every response received so far, in order. */
  readonly exchanges: readonly ExchangeRecord[];
  request(method: string, path: string, options?: HttpRequestOptions): Promise<HttpResult>;
  get(path: string, options?: HttpRequestOptions): Promise<HttpResult>;
  post(path: string, json: unknown, options?: HttpRequestOptions): Promise<HttpResult>;
  put(path: string, json: unknown, options?: HttpRequestOptions): Promise<HttpResult>;
  delete(path: string, options?: HttpRequestOptions): Promise<HttpResult>;
  /**
   * Sends `path` byte for byte through `node:http`, bypassing URL normalization (fetch would resolve
   * `../` before sending, so the server would never see it).
   */
  requestVerbatim(method: string, path: string, options?: Pick<HttpRequestOptions, 'token'>): Promise<HttpResult>;
}

/** A request that has not answered within this time fails the run instead of hanging it. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Creates a client for `baseUrl` (e.g. `http://127.0.0.1:4241`); paths are absolute (`/api/v1/...`).
 *
 * @example
 * const client = createHttpClient('http://127.0.0.1:4241');
 * const res = await client.get('/api/v1/health');
 */
export function createHttpClient(baseUrl: string): HttpClient {
  const origin = baseUrl.replace(/\/+$/, '');
  const exchanges: ExchangeRecord[] = [];
  const record = (method: string, path: string, status: number) =>
    exchanges.push({ method, path: shortPath(path), status });

  const request = async (method: string, path: string, options: HttpRequestOptions = {}): Promise<HttpResult> => {
    const url = new URL(origin + path);
    for (const [name, value] of options.query ?? []) url.searchParams.append(name, value);
    const headers = new Headers(options.headers);
    const authorization = options.authorization ?? (options.token ? `Bearer ${options.token.reveal()}` : undefined);
    if (authorization !== undefined) headers.set('authorization', authorization);
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    } else if (options.rawBody !== undefined) {
      body = options.rawBody;
    }
    const response = await fetch(url, {
      method,
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    record(method, url.pathname, response.status);
    return { status: response.status, headers: response.headers, body: parseJson(text), text };
  };

  const requestVerbatim = (method: string, path: string, options: Pick<HttpRequestOptions, 'token'> = {}) =>
    new Promise<HttpResult>((resolve, reject) => {
      const target = new URL(origin);
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const headers: Record<string, string> = options.token
        ? { authorization: `Bearer ${options.token.reveal()}` }
        : {};
      const req = send(
        {
          host: target.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: target.port,
          method,
          path,
          headers,
          timeout: REQUEST_TIMEOUT_MS,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const status = res.statusCode ?? 0;
            record(method, path, status);
            const responseHeaders = new Headers();
            for (const [name, value] of Object.entries(res.headers))
              if (typeof value === 'string') responseHeaders.set(name, value);
            resolve({ status, headers: responseHeaders, body: parseJson(text), text });
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
      req.on('error', reject);
      req.end();
    });

  return {
    baseUrl: origin,
    exchanges,
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, json, options) => request('POST', path, { ...options, json }),
    put: (path, json, options) => request('PUT', path, { ...options, json }),
    delete: (path, options) => request('DELETE', path, options),
    requestVerbatim,
  };
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

// Ledger lines stay readable when a probe sends a 4 KB id.
function shortPath(path: string): string {
  const withoutQuery = path.split('?')[0] ?? path;
  return withoutQuery.length > 120 ? `${withoutQuery.slice(0, 100)}…(${withoutQuery.length} chars)` : withoutQuery;
}
