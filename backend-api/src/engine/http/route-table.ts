/** One route of a {@link RouteTable}: a method, an Express-style pattern (`/a/:id/b`) and what it leads to. */
export interface RouteEntry<T> {
  method: string;
  pattern: string;
  target: T;
}

/** What {@link RouteTable.match} found for a path. */
export type RouteMatch<T> =
  | { kind: 'found'; target: T; pattern: string; params: Record<string, string> }
  /** The path is served, but not with this method: the methods that are. */
  | { kind: 'method_not_allowed'; allow: readonly string[] }
  /** A parameter's percent-encoding is broken: it cannot name anything. */
  | { kind: 'undecodable' }
  | { kind: 'none' };

interface Node<T> {
  /** Static children by lower-cased segment (Express routes are case-insensitive by default). */
  readonly statics: Map<string, Node<T>>;
  param?: { name: string; node: Node<T> };
  /** Routes ending here, by method. */
  readonly routes: Map<string, { target: T; pattern: string; paramNames: readonly string[] }>;
}

const newNode = <T>(): Node<T> => ({ statics: new Map(), routes: new Map() });

/** `/a/:id/` → `['a', ':id']` (a trailing slash is ignored, as Express does by default). */
function segmentsOf(path: string): string[] {
  const trimmed = path.endsWith('/') && path.length > 1 ? path.slice(0, -1) : path;
  return trimmed.split('/').slice(1);
}

/**
 * A segment trie from method and path to a route, built once: one lookup per request instead of testing each
 * route's expression in turn. Static segments win over parameters (`/todos/search` over `/todos/:id`) for the
 * methods they serve, other methods still reach the parameter route (as Express tries routes in turn), matching
 * is case-insensitive for static segments, and parameters are percent-decoded, as Express routes behave.
 *
 * @example
 * const table = new RouteTable([{ method: 'GET', pattern: '/todos/:id', target: readTodo }]);
 * table.match('GET', '/todos/42'); // { kind: 'found', target: readTodo, params: { id: '42' }, ... }
 */
export class RouteTable<T> {
  private readonly root: Node<T> = newNode();

  constructor(entries: Iterable<RouteEntry<T>>) {
    for (const entry of entries) this.add(entry);
  }

  private add({ method, pattern, target }: RouteEntry<T>): void {
    let node = this.root;
    const paramNames: string[] = [];
    for (const segment of segmentsOf(pattern)) {
      if (segment.startsWith(':')) {
        const name = segment.slice(1);
        if (node.param && node.param.name !== name)
          throw new Error(`Route ${pattern}: parameter :${name} where another route has :${node.param.name}.`);
        node.param ??= { name, node: newNode() };
        paramNames.push(name);
        node = node.param.node;
      } else {
        const key = segment.toLowerCase();
        let next = node.statics.get(key);
        if (!next) node.statics.set(key, (next = newNode()));
        node = next;
      }
    }
    if (node.routes.has(method)) throw new Error(`Route ${method} ${pattern} is declared twice.`);
    node.routes.set(method, { target, pattern, paramNames });
  }

  /** The route serving `method` at `path` (the URL path, without query string). */
  match(method: string, path: string): RouteMatch<T> {
    const segments = segmentsOf(path);
    const values: string[] = [];
    // HEAD is answered by the GET route, as in Express.
    const serves = (node: Node<T>) =>
      node.routes.get(method) ?? (method === 'HEAD' ? node.routes.get('GET') : undefined);
    const node = this.walk(this.root, segments, 0, values, serves);
    if (!node) {
      // No route serves this method here: a path served with other methods answers with them.
      const other = this.walk(this.root, segments, 0, [], (candidate) =>
        candidate.routes.size > 0 ? true : undefined,
      );
      return other ? { kind: 'method_not_allowed', allow: [...other.routes.keys()].sort() } : { kind: 'none' };
    }
    const route = serves(node) as NonNullable<ReturnType<typeof serves>>;
    const params: Record<string, string> = {};
    for (let i = 0; i < route.paramNames.length; i++) {
      const raw = values[i] as string;
      try {
        params[route.paramNames[i] as string] = raw.includes('%') ? decodeURIComponent(raw) : raw;
      } catch {
        return { kind: 'undecodable' };
      }
    }
    return { kind: 'found', target: route.target, pattern: route.pattern, params };
  }

  /** The first node, static segments before parameters, that `accepts`; parameter values are pushed on `values`. */
  private walk(
    node: Node<T>,
    segments: readonly string[],
    index: number,
    values: string[],
    accepts: (node: Node<T>) => unknown,
  ): Node<T> | undefined {
    if (index === segments.length) return accepts(node) === undefined ? undefined : node;
    const segment = segments[index] as string;
    // Most URLs are already lower-case: lower-casing only on a miss keeps the common lookup allocation-free.
    const fixed = node.statics.get(segment) ?? node.statics.get(segment.toLowerCase());
    if (fixed) {
      const found = this.walk(fixed, segments, index + 1, values, accepts);
      if (found) return found;
    }
    if (node.param && segment !== '') {
      values.push(segment);
      const found = this.walk(node.param.node, segments, index + 1, values, accepts);
      if (found) return found;
      values.pop();
    }
    return undefined;
  }
}
