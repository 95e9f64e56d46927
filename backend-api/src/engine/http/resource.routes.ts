import { CoreResourceOperation } from '@wildo/shared-lib';
import { Router, type Request, type Response } from 'express';
import { FrameworkError } from '../errors/index.js';
import type { CompiledOperation } from '../resources/compiled-resource.types.js';
import type { OperationDispatcher } from '../resources/operation-dispatcher.service.js';
import type { ResourcesRegistry } from '../resources/resources-registry.service.js';
import { httpState, param, sendData } from './http-state.js';

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
  return async function dispatchOperation(req: Request, res: Response): Promise<void> {
    const state = httpState(res);
    const organizationId = param(req, 'organizationId');
    const withBody = operation.http?.method === 'POST' || operation.http?.method === 'PUT' || operation.http?.method === 'DELETE';
    const expectedVersion = expectedVersionOf(req);
    const result = await dispatcher.dispatch({
      operation,
      principal: state.principal,
      surface: 'rest',
      requestId: state.requestId,
      contextIds: organizationId ? { organizationId } : {},
      ...(operation.target === 'instance' ? { id: param(req, 'id') } : {}),
      ...(withBody ? { body: req.body as unknown } : {}),
      ...(operation.http?.method === 'GET' ? { query: req.query as Record<string, unknown> } : {}),
      ...(expectedVersion !== undefined ? { expectedVersion } : {}),
      ...(req.get('x-reauth-token') ? { reauthToken: req.get('x-reauth-token') as string } : {}),
    });
    if (operation.lifecycle === 'deprecated') res.setHeader('deprecation', 'true');
    if (result.version !== undefined) res.setHeader('etag', `"${result.version}"`);
    sendData(res, statusOf(operation), result.data, result.nextCursor);
  };
}

/**
 * Serves every URL-bearing operation of the registry under `/api/v1` through the dispatcher. A known path
 * with an unsupported method answers 405 with `Allow`.
 */
export function createResourceRouter(options: ResourceRouterOptions): Router {
  const router = Router();
  const methodsByPath = new Map<string, Set<string>>();
  for (const operation of options.registry.listOperations()) {
    const http = operation.http;
    if (!http) continue;
    const handler = handlerFor(operation, options.dispatcher);
    if (http.method === 'GET') router.get(http.path, handler);
    else if (http.method === 'POST') router.post(http.path, handler);
    else if (http.method === 'PUT') router.put(http.path, handler);
    else router.delete(http.path, handler);
    const methods = methodsByPath.get(http.path) ?? new Set<string>();
    methods.add(http.method);
    methodsByPath.set(http.path, methods);
  }
  for (const [path, methods] of methodsByPath) {
    const allow = [...methods].sort().join(', ');
    router.all(path, (_req, res) => {
      res.setHeader('allow', allow);
      throw new FrameworkError('METHOD_NOT_ALLOWED', 'This method is not allowed here.');
    });
  }
  return router;
}
