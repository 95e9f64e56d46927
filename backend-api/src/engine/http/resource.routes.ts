import { CoreResourceOperation } from '@wildo/shared-lib';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { FrameworkError } from '../errors/index.js';
import type { CompiledOperation, DispatchRequest, OperationDispatcher, ResourcesRegistry } from '../resources/index.js';
import { httpState, sendData } from '../routing/index.js';
import { RouteTable, type RouteEntry } from './route-table.js';

/** Options of {@link createResourceRouter}. */
export interface ResourceRouterOptions {
  registry: ResourcesRegistry;
  dispatcher: OperationDispatcher;
  /** Where the API is mounted (`/api/v1`): the router is used at the application's root, before the API router. */
  prefix: string;
  /**
   * What runs, in order, before a matched operation (body, authentication, throttle): the same middleware the API
   * router runs for its own routes, here without the router's mount and layers on the busiest path.
   */
  before: readonly RequestHandler[];
}

/** Runs `handlers` in order like a router would (an error or a rejected promise ends the chain), then `done`. */
function runInOrder(
  handlers: readonly RequestHandler[],
  req: Request,
  res: Response,
  done: (error?: unknown) => void,
): void {
  let index = 0;
  let finished = false;
  const finish = (error?: unknown) => {
    if (finished) return;
    finished = true;
    done(error);
  };
  const step = (error?: unknown): void => {
    if (error !== undefined && error !== null) return finish(error);
    const handler = handlers[index++];
    if (!handler) return finish();
    try {
      const outcome: unknown = handler(req, res, step);
      if (outcome instanceof Promise) outcome.catch(finish);
    } catch (thrown) {
      finish(thrown);
    }
  };
  step();
}

/** `If-Match: "3"` (or `W/"3"`) → 3; absent or `*` → undefined; anything else cannot match any version. */
function expectedVersionOf(req: Request): number | undefined {
  const header = req.get('if-match');
  if (header === undefined || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(header);
  if (!match) throw new FrameworkError('PRECONDITION_FAILED', 'If-Match must be an ETag returned by this API.');
  return Number(match[1]);
}

function statusOf(operation: CompiledOperation): number {
  return operation.core === CoreResourceOperation.CREATE ? 201 : 200;
}

function handlerFor(operation: CompiledOperation, dispatcher: OperationDispatcher) {
  const withBody =
    operation.http?.method === 'POST' || operation.http?.method === 'PUT' || operation.http?.method === 'DELETE';
  const withQuery = operation.http?.method === 'GET';
  const status = statusOf(operation);
  return async function dispatchOperation(req: Request, res: Response, params: Record<string, string>): Promise<void> {
    const state = httpState(res);
    const organizationId = params.organizationId;
    const expectedVersion = expectedVersionOf(req);
    const reauthToken = req.get('x-reauth-token');
    const approvalId = operation.approval ? req.get('approval-id') : undefined;
    // Built field by field: the request object is made on every call, and optional fields stay absent.
    const request: DispatchRequest = {
      operation,
      principal: state.principal,
      surface: 'rest',
      requestId: state.requestId,
      contextIds: organizationId ? { organizationId } : {},
    };
    if (operation.target === 'instance') request.id = params.id ?? '';
    if (withBody) request.body = req.body as unknown;
    if (withQuery) request.query = req.query as Record<string, unknown>;
    if (expectedVersion !== undefined) request.expectedVersion = expectedVersion;
    if (reauthToken) request.reauthToken = reauthToken;
    if (approvalId) request.approvalId = approvalId;
    const result = await dispatcher.dispatch(request);
    if (operation.lifecycle === 'deprecated') res.setHeader('deprecation', 'true');
    if (result.version !== undefined) res.setHeader('etag', `"${result.version}"`);
    sendData(res, status, result.data, result.nextCursor, result.withheld);
  };
}

type OperationHandler = ReturnType<typeof handlerFor>;

/**
 * Serves every URL-bearing operation of the registry under `/api/v1` through the dispatcher, with one lookup
 * in a route table built at start (resource traffic is most of the traffic), mounted at the application's root
 * so that traffic skips the API router's mount and layers; `before` runs the API's body, authentication and
 * throttle steps first, in the API router's order. A known path with an unsupported
 * method answers 405 with `Allow`; other paths fall through to the engine's own routes.
 */
export function createResourceRouter(options: ResourceRouterOptions): RequestHandler {
  const entries: RouteEntry<OperationHandler>[] = [];
  for (const operation of options.registry.listOperations()) {
    if (!operation.http) continue;
    // Every method of an operation leads to the same handler: one dispatch path, the same checks.
    const target = handlerFor(operation, options.dispatcher);
    for (const method of [operation.http.method, ...(operation.http.alsoAccepts ?? [])])
      entries.push({ method, pattern: operation.http.path, target });
  }
  const table = new RouteTable(entries);
  const prefix = options.prefix.toLowerCase();
  return function resourceRoutes(req: Request, res: Response, next: NextFunction): void {
    const path = req.path;
    // Under the API's mount point, in any letter case (as Express mounts), or not ours.
    if (path.charCodeAt(prefix.length) !== 47 || path.slice(0, prefix.length).toLowerCase() !== prefix) return next();
    const match = table.match(req.method, path.slice(prefix.length));
    if (match.kind === 'none') return next();
    runInOrder(options.before, req, res, (error) => {
      if (error !== undefined) return next(error);
      // As Express answers a parameter it cannot decode.
      if (match.kind === 'undecodable') return next(new FrameworkError('BAD_REQUEST', 'The request is malformed.'));
      if (match.kind === 'method_not_allowed') {
        res.setHeader('allow', match.allow.join(', '));
        return next(new FrameworkError('METHOD_NOT_ALLOWED', 'This method is not allowed here.'));
      }
      httpState(res).route = match.pattern;
      match.target(req, res, match.params).catch(next);
    });
  };
}
