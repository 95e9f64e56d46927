/** A wire-level failure answered as a JSON-RPC error with an HTTP status, before any method runs. */
export class JsonRpcWireError extends Error {
  override readonly name = 'JsonRpcWireError';
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}
