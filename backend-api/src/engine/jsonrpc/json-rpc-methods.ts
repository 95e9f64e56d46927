/**
 * A server's JSON-RPC methods, looked up by their own names only: a method called `toString`, `__proto__`,
 * `constructor` or `hasOwnProperty` names nothing (an object literal indexed by the method would find
 * `Object.prototype`'s members and run them as handlers).
 *
 * @example
 * const METHODS = new JsonRpcMethods({ 'tools/list': listTools, 'tools/call': callTool });
 * const handler = METHODS.get(message.method); // undefined → answer -32601 before anything else runs
 */
export class JsonRpcMethods<TMethod> {
  private readonly byName: ReadonlyMap<string, TMethod>;

  constructor(methods: Readonly<Record<string, TMethod>>) {
    this.byName = new Map(Object.entries(methods));
  }

  /** The method of that name, or undefined when the server has none. */
  get(name: string): TMethod | undefined {
    return this.byName.get(name);
  }

  /** Whether the server has a method of that name. */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Every method name, in declaration order. */
  names(): string[] {
    return [...this.byName.keys()];
  }
}
