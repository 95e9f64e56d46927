/**
 * The declarations of connector-backed operations: which backend answers an operation (a REST API or a PostgreSQL
 * database), how the operation's input becomes the backend's request, and how the backend's answer becomes the
 * operation's output. Plain data: the engine validates it at start and runs it on the dispatch path.
 */

/** A JSONPath into a backend's answer (`$.stays[*]`, `$.error.code`); scripts and filters are never evaluated. */
export type JsonPath = `$${string}`;

/** The HTTP methods a REST binding may use. */
export type RestMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A REST backend: where it lives and what every call to it carries. */
export interface RestConnector {
  readonly kind: 'rest';
  /** A label for logs and start-up messages (`travel-agency`). */
  readonly name: string;
  /** Absolute base URL, literal or from the environment: `${TRAVEL_AGENCY_API_URL}`. */
  readonly baseUrl: string;
  /** Headers of every call; values may use `${ENV}` and `${caller.accessToken}`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Time allowed for one call, in milliseconds (default 10 000). */
  readonly timeoutMs?: number;
  /** Largest answer accepted, in bytes (default 1 MiB). */
  readonly maxBytes?: number;
}

/** A PostgreSQL database answering SELECT statements under row-level security. */
export interface SqlConnector {
  readonly kind: 'sql';
  readonly name: string;
  /** Connection string, from the environment: `${REPORTING_DSN}` (never written literally). */
  readonly dsn: string;
  /** Time allowed for one statement, in milliseconds (default 10 000). */
  readonly timeoutMs?: number;
  /** Connections kept open at most (default 4). */
  readonly maxConnections?: number;
}

/** Any connector. */
export type Connector = RestConnector | SqlConnector;

/** A claim of the caller's verified identity, passed to the database as a transaction-scoped setting. */
export type IdentityClaim = 'principal' | 'userId' | 'organizationId' | 'clientId';

/** When a row of a collection is an error row rather than a result (an error inside a 2xx answer). */
export interface ErrorRowCondition {
  /** The row is an error row when this path exists (or, with `exists: false`, does not). */
  path: JsonPath;
  exists?: boolean;
}

type Keys<T> = T extends readonly unknown[] ? never : T extends object ? keyof T & string : string;
type Item<T> = T extends readonly (infer E)[] ? E : T;
type At<T, K> = K extends keyof T ? T[K] : never;
type FieldMap<T> = { readonly [K in Keys<T>]?: JsonPath };
type ErrorFields<T> = T extends { $row: 'error' } ? T : never;
type OkFields<T> = T extends { $row: 'error' } ? never : T;

/** Error rows of a collection, mapped to the declared error row (marked `$row: "error"`). */
export interface ErrorRowMapping<TRow = unknown> {
  when: ErrorRowCondition;
  map: FieldMap<Omit<ErrorFields<TRow>, '$row'>>;
}

/**
 * How an answer becomes the output. `map` names each declared field and the JSONPath it is read from (relative to
 * one row with `collection`, to the answer otherwise); `into` names the output field that receives the mapped value
 * (absent: the mapped value is the output itself); `extract` reads further output fields from the whole answer.
 */
export type ResponseMapping<TOut = unknown> = {
  [K in Keys<TOut>]: {
    readonly into: K;
    readonly collection?: JsonPath;
    readonly map: FieldMap<Omit<OkFields<Item<At<TOut, K>>>, '$row'>>;
    readonly extract?: FieldMap<Omit<TOut, K>>;
    readonly onError?: ErrorRowMapping<Item<At<TOut, K>>>;
  };
}[Keys<TOut>] extends infer Into
  ? | Into
    | {
        readonly into?: undefined;
        readonly collection?: JsonPath;
        readonly map: FieldMap<Omit<OkFields<Item<TOut>>, '$row'>>;
        readonly extract?: undefined;
        readonly onError?: ErrorRowMapping<Item<TOut>>;
      }
  : never;

/** Input field names, or any name for an input type that is not an object. */
type InputField<TIn> = TIn extends object ? keyof TIn & string : string;

/**
 * An operation answered by a REST call. Templates: `{field}` is an input value (encoded in the path), `${ENV}` an
 * environment variable, `${caller.accessToken}` the caller's own verified delegated token (headers only).
 */
export interface RestOperationBinding<TOut = unknown> {
  readonly connector: RestConnector;
  readonly method: RestMethod;
  /** Below the base URL, with input placeholders: `/v1/stays/{stayId}`. */
  readonly path: string;
  /** Query parameters (default for GET and DELETE: every input field the path does not use). */
  readonly query?: Readonly<Record<string, string>>;
  /** The JSON body, `{field}` strings replaced by input values (default for POST, PUT, PATCH: the input the path does not use). */
  readonly body?: unknown;
  /** Headers of this call, beside the connector's. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly response: ResponseMapping<TOut>;
}

/** An operation answered by one SELECT statement, in a READ ONLY transaction, under row-level security. */
export interface SqlOperationBinding<TIn = unknown, TOut = unknown> {
  readonly connector: SqlConnector;
  /** One SELECT statement with `$1`, `$2`, ... parameters. */
  readonly sql: string;
  /** The input fields passed as `$1`, `$2`, ... in this order. */
  readonly params?: readonly InputField<TIn>[];
  /**
   * Transaction-scoped settings the database's row-level-security policies read, each from a claim of the caller's
   * verified identity. Default: `wildo.principal`, and `wildo.organization_id` for an organization's operation.
   */
  readonly identity?: Readonly<Record<string, IdentityClaim>>;
  readonly timeoutMs?: number;
  /** Rows become the output (`collection: '$[*]'`). */
  readonly response: ResponseMapping<TOut>;
}

/** How one operation reaches its backend. */
export type OperationBinding<TIn = unknown, TOut = unknown> =
  | RestOperationBinding<TOut>
  | SqlOperationBinding<TIn, TOut>;
