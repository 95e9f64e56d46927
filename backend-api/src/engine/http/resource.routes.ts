import { CoreResourceOperation } from '@wildo/shared-lib';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { FrameworkError } from '../errors/index.js';
import type { CompiledOperation } from '../resources/compiled-resource.types.js';
import type { DispatchRequest, OperationDispatcher } from '../resources/operation-dispatcher.service.js';
import type { ResourcesRegistry } from '../resources/resources-registry.service.js';
import { httpState, sendData } from './http-state.js';
import { RouteTable, type RouteEntry } from './route-table.js';

/** Options of {@link createResourceRouter}. */
export interface ResourceRouterOptions {
  registry: ResourcesRegistry;
  dispatcher: OperationDispatcher;
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
    const result = await dispatcher.dispatch(request);
    if (operation.lifecycle === 'deprecated') res.setHeader('deprecation', 'true');
    if (result.version !== undefined) res.setHeader('etag', `"${result.version}"`);
    sendData(res, status, result.data, result.nextCursor);
  };
}

type OperationHandler = ReturnType<typeof handlerFor>;

/**
 * Serves every URL-bearing operation of the registry under `/api/v1` through the dispatcher, with one lookup
 * in a route table built at start (resource traffic is most of the traffic). A known path with an unsupported
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
  return function resourceRoutes(req: Request, res: Response, next: NextFunction): void {
    const match = table.match(req.method, req.path);
    if (match.kind === 'none') return next();
    // As Express answers a parameter it cannot decode.
    if (match.kind === 'undecodable') return next(new FrameworkError('BAD_REQUEST', 'The request is malformed.'));
    if (match.kind === 'method_not_allowed') {
      res.setHeader('allow', match.allow.join(', '));
      return next(new FrameworkError('METHOD_NOT_ALLOWED', 'This method is not allowed here.'));
    }
    httpState(res).route = match.pattern;
    match.target(req, res, match.params).catch(next);
  };
}
