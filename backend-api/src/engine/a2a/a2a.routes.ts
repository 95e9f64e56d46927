import express, { Router, type Request, type Response } from 'express';
import type { CounterPolicy } from '../coordination/index.js';
import { FrameworkError, toFrameworkError, toJsonRpcError } from '../errors/index.js';
import { burstKeyOf, httpState, streamOwnerOf, type EventStreams } from '../routing/index.js';
import type { AuthenticatedPrincipal } from '../identity/index.js';
import type { Logger } from '../logging/index.js';
import { JsonRpcWireError, parseJsonRpcMessage, rpcError, rpcResult, type JsonRpcMessage } from '../jsonrpc/index.js';
import type { ResourceServerAuthenticator } from '../resource-servers/index.js';
import { rateLimited, type RateLimitService } from '../resources/index.js';
import type { A2aAgent, A2aAgentDirectory } from './a2a-agents.js';
import { legacyAgentCard, v1AgentCard, type A2aCardAuthorization } from './a2a-card.js';
import { runA2aMethod, type A2aMethodDeps } from './a2a-methods.js';
import {
  A2A_ERRORS,
  A2A_FRAMEWORK_ERROR_TABLE,
  A2A_METHODS,
  A2A_PROTOCOL_VERSIONS,
  A2aRpcError,
  type A2aDialect,
  type A2aOperation,
} from './a2a-protocol.js';
import { paramsOf } from './a2a-wire.js';
import { A2A_PATH } from '../urls/index.js';

/** Options of {@link createA2aRouter}. */
export interface A2aRouterOptions extends A2aMethodDeps {
  agents: A2aAgentDirectory;
  authenticator: ResourceServerAuthenticator;
  rateLimits: RateLimitService;
  /** The blanket per-owner throttle; the A2A surface also has its own bucket under the same policy. */
  burst: CounterPolicy;
  logger: Logger;
  authorization: A2aCardAuthorization;
  /** Open streams per principal, heartbeats and the idle timeout of `message/stream` and resubscriptions. */
  streams: EventStreams;
}

const CARD_FILES = ['agent-card.json', 'agent.json'];

/** Sends a JSON-RPC error: protocol errors with their status, framework errors by A2A's code table. */
function sendError(res: Response, id: JsonRpcMessage['id'], error: unknown, logger: Logger): void {
  if (error instanceof A2aRpcError || error instanceof JsonRpcWireError) {
    res.status(error.status).json(rpcError(id, error));
    return;
  }
  const framework = toFrameworkError(error);
  if (framework.code === 'INTERNAL') logger.error('A2A request failed', { error: String(framework.cause ?? error) });
  if (framework.retryAfterSeconds !== undefined) res.setHeader('retry-after', String(framework.retryAfterSeconds));
  // JSON-RPC refusals travel with 200, as A2A clients expect; throttling, outages and internal failures keep theirs.
  const status = [429, 500, 503].includes(framework.status) ? framework.status : 200;
  res.status(status).json(frameworkErrorEnvelope(id, framework));
}

/** A framework error as a JSON-RPC error response, by A2A's code table. */
function frameworkErrorEnvelope(id: JsonRpcMessage['id'], error: FrameworkError) {
  return rpcError(id, toJsonRpcError(error, A2A_FRAMEWORK_ERROR_TABLE));
}

/** The dialect version a request's `A2A-Version` names; a version this dialect does not serve is refused. */
function admitVersion(req: Request, dialect: A2aDialect): string {
  const asked = req.get('a2a-version')?.trim();
  const served = A2A_PROTOCOL_VERSIONS[dialect];
  if (!asked) return served[0] ?? '';
  if (served.includes(asked)) return asked;
  // Nothing of the header is repeated back: only the versions this server serves.
  throw new A2aRpcError(
    A2A_ERRORS.VERSION_NOT_SUPPORTED,
    `The A2A-Version asked for is not served with this method; served: ${[...A2A_PROTOCOL_VERSIONS.v1, ...A2A_PROTOCOL_VERSIONS.legacy].join(', ')}.`,
    400,
  );
}

/**
 * The A2A resource server: agent cards under `/a2a[/:instance]/.well-known/` and one JSON-RPC endpoint per agent
 * at `/a2a` and `/a2a/:instance` (an unknown instance is 404, never the default) speaking both dialects, told apart
 * by method name. Calls authenticate with a token for exactly that endpoint (or an API key), pass the blanket
 * per-owner throttle and the A2A bucket, then run as tasks over the conversational path of actor systems.
 */
export function createA2aRouter(options: A2aRouterOptions): Router {
  const router = Router();
  const json = express.json({ limit: 1024 * 1024, strict: false, type: () => true });

  for (const file of CARD_FILES) {
    router.get([`${A2A_PATH}/.well-known/${file}`, `${A2A_PATH}/:instance/.well-known/${file}`], (req, res) => {
      const agent = options.agents.agent(instanceOf(req));
      if (!agent) return void res.status(404).json({ error: 'not_found', error_description: 'No such A2A agent.' });
      sendCard(req, res, agent, file, options.authorization);
    });
  }

  router.all([A2A_PATH, `${A2A_PATH}/:instance`], (req, res) => {
    const agent = options.agents.agent(instanceOf(req));
    if (!agent)
      return void res
        .status(404)
        .json(rpcError(null, { code: A2A_ERRORS.SERVER_ERROR, message: 'No such A2A agent.' }));
    if (req.method !== 'POST')
      return void res
        .status(405)
        .setHeader('allow', 'POST')
        .json(rpcError(null, { code: A2A_ERRORS.SERVER_ERROR, message: 'Method not allowed.' }));
    json(req, res, (error?: unknown) => {
      if (error)
        return void res
          .status(error && (error as { type?: string }).type === 'entity.too.large' ? 413 : 400)
          .json(rpcError(null, { code: A2A_ERRORS.PARSE_ERROR, message: 'Parse error' }));
      void respond(req, res, agent).catch((failure: unknown) => {
        if (!res.headersSent) sendError(res, null, failure, options.logger);
        else res.end();
      });
    });
  });

  const respond = async (req: Request, res: Response, agent: A2aAgent) => {
    let message: JsonRpcMessage;
    try {
      message = parseJsonRpcMessage(req.body);
    } catch (error) {
      return sendError(res, null, error, options.logger);
    }
    const id = message.id;
    try {
      const method = A2A_METHODS.get(message.method);
      if (!method) throw new A2aRpcError(A2A_ERRORS.METHOD_NOT_FOUND, 'Method not found');
      if (id === undefined || id === null)
        throw new A2aRpcError(A2A_ERRORS.INVALID_REQUEST, 'Invalid Request: an id is required.', 400);
      res.setHeader('a2a-version', admitVersion(req, method.dialect));
      const principal = await authenticate(req, res, agent, id);
      if (!principal) return;
      await throttle(req, principal);
      const abort = new AbortController();
      res.on('close', () => abort.abort());
      if (STREAMING.has(method.operation)) res.once('close', options.streams.acquire(streamOwnerOf(principal)));
      const answer = await runA2aMethod(options, {
        dialect: method.dialect,
        operation: method.operation,
        params: paramsOf(message.params),
        agent,
        principal,
        requestId: httpState(res).requestId,
        signal: abort.signal,
      });
      if ('result' in answer) return void res.json(rpcResult(id, answer.result));
      await stream(res, id, answer.stream, options.streams, abort);
    } catch (error) {
      if (res.headersSent) {
        res.write(`data: ${JSON.stringify(errorEnvelope(id, error))}\n\n`);
        return void res.end();
      }
      sendError(res, id, error, options.logger);
    }
  };

  const authenticate = async (
    req: Request,
    res: Response,
    agent: A2aAgent,
    id: JsonRpcMessage['id'],
  ): Promise<AuthenticatedPrincipal | null> => {
    const audience = new URL(agent.audience);
    const metadata = `${audience.origin}/.well-known/oauth-protected-resource${audience.pathname}`;
    try {
      const principal = await options.authenticator.authenticate(req.get('authorization'), agent.audience);
      if (principal) {
        httpState(res).principal = principal;
        return principal;
      }
      res.status(401).setHeader('www-authenticate', `Bearer resource_metadata="${metadata}"`);
      res.json(
        frameworkErrorEnvelope(
          id,
          new FrameworkError('UNAUTHENTICATED', 'Authentication required.', { reason: 'no_credential' }),
        ),
      );
    } catch (error) {
      const framework = toFrameworkError(error);
      if (framework.code !== 'UNAUTHENTICATED') throw error;
      res.status(401).setHeader('www-authenticate', `Bearer error="invalid_token", resource_metadata="${metadata}"`);
      res.json(frameworkErrorEnvelope(id, framework));
    }
    return null;
  };

  const throttle = async (req: Request, principal: AuthenticatedPrincipal) => {
    const key = burstKeyOf(principal, () => req.ip);
    const [blanket, surface] = await Promise.all([
      options.rateLimits.chargeBurst(key, options.burst),
      options.rateLimits.chargeBurst(`a2a:${key}`, options.burst),
    ]);
    for (const decision of [blanket, surface]) if (decision && !decision.allowed) throw rateLimited(decision);
  };

  return router;
}

/** The default agent's cards at the origin's `/.well-known/agent-card.json` and `/.well-known/agent.json`. */
export function createA2aWellKnownRouter(agents: A2aAgentDirectory, authorization: A2aCardAuthorization): Router {
  const router = Router();
  for (const file of CARD_FILES) {
    router.get(`/.well-known/${file}`, (req, res) => {
      const agent = agents.agent(undefined);
      if (!agent) return void res.status(404).end();
      sendCard(req, res, agent, file, authorization);
    });
  }
  return router;
}

function instanceOf(req: Request): string | undefined {
  return typeof req.params.instance === 'string' ? req.params.instance : undefined;
}

/** `agent.json` is the 0.2.5 location; `agent-card.json` serves the 1.0 card to a client that asks for 1.0. */
function sendCard(req: Request, res: Response, agent: A2aAgent, file: string, auth: A2aCardAuthorization): void {
  const v1 = file === 'agent-card.json' && (req.get('a2a-version') ?? '').trim().startsWith('1');
  res.setHeader('cache-control', 'public, max-age=300');
  res.setHeader('vary', 'A2A-Version');
  res.json(v1 ? v1AgentCard(agent, auth) : legacyAgentCard(agent, auth));
}

function errorEnvelope(id: JsonRpcMessage['id'], error: unknown) {
  if (error instanceof A2aRpcError) return rpcError(id, error);
  return frameworkErrorEnvelope(id, toFrameworkError(error));
}

/**
 * Writes a stream's results as server-sent events, one JSON-RPC response each, with heartbeats; a stream quiet for
 * the idle timeout is closed (the task goes on; the client may resubscribe).
 */
async function stream(
  res: Response,
  id: JsonRpcMessage['id'],
  results: AsyncIterable<unknown>,
  streams: EventStreams,
  abort: AbortController,
): Promise<void> {
  const iterator = results[Symbol.asyncIterator]();
  // The first frame is produced before the headers: a refusal (task not found) is still a plain JSON-RPC error.
  const first = await iterator.next();
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  const alive = streams.keepAlive(res, () => abort.abort());
  const write = (result: unknown) => {
    alive.touch();
    if (!res.writableEnded && !res.destroyed) res.write(`data: ${JSON.stringify(rpcResult(id, result))}\n\n`);
  };
  try {
    if (!first.done) {
      write(first.value);
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) write(next.value);
    }
  } finally {
    alive.stop();
  }
  res.end();
}

/** The methods whose answer is a stream. */
const STREAMING: ReadonlySet<A2aOperation> = new Set(['stream', 'subscribe']);
