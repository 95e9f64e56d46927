import { ResourceServerKind } from '@wildo/shared-lib';
import express, { Router, type Request, type Response } from 'express';
import type { CounterPolicy } from '../coordination/index.js';
import { requesterKeyOf } from '../approvals/index.js';
import { FrameworkError, toFrameworkError } from '../errors/index.js';
import { burstKeyOf, httpState, streamOwnerOf, type EventStreams, type StreamKeepAlive } from '../routing/index.js';
import { ENGINE_VERSION } from '../config/index.js';
import {
  readUserSnapshot,
  type AuthenticatedPrincipal,
  type PrincipalDirectory,
  type RoleHierarchyResolver,
} from '../identity/index.js';
import type { Logger } from '../logging/index.js';
import { traceMcpToolCall } from '../observability/index.js';
import type {
  ResourceServerAuthenticator,
  ResourceServerInstancesRegistryBackendService,
} from '../resource-servers/index.js';
import { rateLimited, type RateLimitService } from '../resources/index.js';
import { errorResult } from './mcp-results.js';
import {
  JsonRpcMethods,
  JsonRpcWireError,
  replyIdOf,
  rpcError,
  rpcFrameworkError,
  rpcResult,
  type JsonRpcMessage,
} from '../jsonrpc/index.js';
import {
  HANDSHAKE_PROTOCOL_VERSIONS,
  META_SERVER_INFO,
  RPC_ERRORS,
  STATELESS_PROTOCOL_VERSIONS,
} from './mcp-protocol.js';
import { admitEra, isStatelessRequest, parseMessage, type McpEra } from './mcp-wire.js';
import type { McpClientChannel, McpClientReplies, McpSessionCodec } from './mcp-client-requests.js';
import type { McpToolCallService } from './tool-call.service.js';
import type { McpToolCatalogue } from './tool-catalogue.service.js';
import { isToolVisible } from './tool-visibility.js';
import { MCP_PATH } from '../urls/index.js';

/** Options of {@link createMcpRouter}. */
export interface McpRouterOptions {
  catalogue: McpToolCatalogue;
  calls: McpToolCallService;
  authenticator: ResourceServerAuthenticator;
  resourceServers: ResourceServerInstancesRegistryBackendService;
  directory: PrincipalDirectory;
  roles: RoleHierarchyResolver;
  rateLimits: RateLimitService;
  burst: CounterPolicy;
  logger: Logger;
  /** The issuer (public URL); its host, and loopback hosts for a loopback issuer, are the accepted `Host`s. */
  issuer: string;
  /** Open streams per principal, heartbeats and the idle timeout of a tool call answered as a stream (progress). */
  streams: EventStreams;
  /**
   * The handshake revisions' signed session ids (the client's declared capabilities) and the correlation of clients'
   * answers to the server's own requests across replicas; without them the server never asks the client anything.
   */
  sessions?: McpSessionCodec;
  replies?: McpClientReplies;
}

const SERVER_INFO = { name: 'wildo-mcp', version: ENGINE_VERSION };
const CAPABILITIES = { tools: { listChanged: false } };
/** The handshake revisions also take `logging/setLevel` and send log messages within calls. */
const HANDSHAKE_CAPABILITIES = { ...CAPABILITIES, logging: {} };
const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
/** A caller-specific catalogue: clients may reuse it briefly, never share it. */
const CATALOGUE_CACHE = { ttlMs: 60_000, cacheScope: 'private' as const };
/** The methods served, by own name, with the eras that serve them and whether anyone may call them. */
const MCP_METHODS = new JsonRpcMethods<{ stateless: boolean; handshake: boolean; public: boolean }>({
  initialize: { stateless: false, handshake: true, public: true },
  // `ping` belongs to the handshake era; the stateless revision removed it (404 / -32601 there).
  ping: { stateless: false, handshake: true, public: true },
  'server/discover': { stateless: true, handshake: false, public: true },
  'tools/list': { stateless: true, handshake: true, public: false },
  'tools/call': { stateless: true, handshake: true, public: false },
  'logging/setLevel': { stateless: false, handshake: true, public: false },
});

/** A JSON-RPC response message (a client's answer to one of the server's own requests). */
function isResponseMessage(body: unknown): body is { id: unknown; result?: unknown; error?: unknown } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const message = body as Record<string, unknown>;
  return (
    message.jsonrpc === '2.0' &&
    message.method === undefined &&
    'id' in message &&
    ('result' in message || 'error' in message)
  );
}

/** Answers a method this server does not serve (in this era): 404 in the stateless era, a 200 JSON-RPC error before it. */
function methodNotFound(res: Response, message: JsonRpcMessage, stateless: boolean): void {
  res
    .status(stateless ? 404 : 200)
    .json(rpcError(message.id, { code: RPC_ERRORS.METHOD_NOT_FOUND, message: 'Method not found' }));
}

/** Answers a framework error as a JSON-RPC error with its code's HTTP status (and `retry-after` when it has one). */
function sendFrameworkError(res: Response, id: JsonRpcMessage['id'], error: FrameworkError): void {
  if (error.retryAfterSeconds !== undefined) res.setHeader('retry-after', String(error.retryAfterSeconds));
  res.status(error.status).json(rpcFrameworkError(id, error));
}

/** Hosts a request may name (DNS-rebinding protection): the issuer's, and loopback names for a loopback issuer. */
function allowedHosts(issuer: string): Set<string> {
  const url = new URL(issuer);
  const hosts = new Set([url.host]);
  if (['localhost', '127.0.0.1', '[::1]'].includes(url.hostname))
    for (const name of ['localhost', '127.0.0.1', '[::1]']) hosts.add(name);
  return hosts;
}

function hostAllowed(req: Request, hosts: Set<string>): boolean {
  const host = req.get('host') ?? '';
  const name = host.replace(/:\d+$/, '');
  return hosts.has(host) || hosts.has(name);
}

/**
 * The MCP resource server at `/mcp` and `/mcp/:instance` (an unknown instance is 404, never the default):
 * both protocol eras on one stateless endpoint, public initialization and discovery, audience-bound auth with
 * an RFC 9728 challenge, the blanket principal throttle, a per-caller catalogue, calls through the shared path.
 */
export function createMcpRouter(options: McpRouterOptions): Router {
  const router = Router();
  const hosts = allowedHosts(options.issuer);
  const json = express.json({ limit: 1024 * 1024, strict: false, type: () => true });

  const handle = async (req: Request, res: Response) => {
    const instance = typeof req.params.instance === 'string' ? req.params.instance : undefined;
    if (!options.catalogue.catalogue(instance))
      return void res
        .status(404)
        .json(rpcError(null, { code: RPC_ERRORS.SERVER_ERROR, message: 'No such MCP server.' }));
    if (!hostAllowed(req, hosts))
      return void res
        .status(403)
        .json(rpcError(null, { code: RPC_ERRORS.SERVER_ERROR, message: 'Invalid Host header.' }));
    if (req.method !== 'POST')
      return void res
        .status(405)
        .setHeader('allow', 'POST')
        .json(rpcError(null, { code: RPC_ERRORS.SERVER_ERROR, message: 'Method not allowed.' }));
    if (!req.is('application/json'))
      return void res
        .status(415)
        .json(rpcError(null, { code: RPC_ERRORS.SERVER_ERROR, message: 'Send application/json.' }));
    json(req, res, (error?: unknown) => {
      if (error)
        return void res
          .status(error && (error as { type?: string }).type === 'entity.too.large' ? 413 : 400)
          .json(rpcError(null, { code: RPC_ERRORS.PARSE_ERROR, message: 'Parse error' }));
      void respond(req, res, instance).catch((failure: unknown) => {
        options.logger.error('MCP request failed', { error: String(failure) });
        if (!res.headersSent) sendFrameworkError(res, null, toFrameworkError(failure));
      });
    });
  };

  const respond = async (req: Request, res: Response, instance: string | undefined) => {
    if (isResponseMessage(req.body) && options.replies) return answer(req, res, instance, req.body);
    let message: JsonRpcMessage;
    let era: McpEra;
    try {
      message = parseMessage(req.body);
      // An unknown method is answered before anything else looks at the request (its era's headers included).
      if (message.id !== undefined && !MCP_METHODS.has(message.method)) {
        methodNotFound(res, message, isStatelessRequest(req.headers, message));
        return;
      }
      era = admitEra(req.headers, message);
    } catch (error) {
      const wire =
        error instanceof JsonRpcWireError
          ? error
          : new JsonRpcWireError(400, RPC_ERRORS.INVALID_REQUEST, 'Invalid Request');
      return void res.status(wire.status).json(rpcError(replyIdOf(req.body), wire));
    }
    if (message.id === undefined) return void res.status(202).end();
    const method = MCP_METHODS.get(message.method);
    if (!method || !(era.stateless ? method.stateless : method.handshake)) {
      methodNotFound(res, message, era.stateless);
      return;
    }
    const send = (result: Record<string, unknown>) => res.json(rpcResult(message.id, finish(era, result)));
    if (message.method === 'initialize' && options.sessions) {
      const capabilities = (message.params as { capabilities?: unknown } | undefined)?.capabilities;
      res.setHeader('mcp-session-id', options.sessions.mint(capabilities));
    }
    if (method.public) return void send(publicResult(message));
    if (!era.stateless && options.sessions) {
      const declared = options.sessions.capabilities(req.get('mcp-session-id'));
      if (declared) era = { ...era, clientCapabilities: declared };
    }

    const audience = options.resourceServers.audienceOf(ResourceServerKind.MCP, instance);
    const metadata = `${new URL(options.issuer).origin}/.well-known/oauth-protected-resource${new URL(audience).pathname}`;
    const principal = await authenticate(req, res, message, audience, metadata);
    if (!principal) return;
    const burst = await options.rateLimits.chargeBurst(
      burstKeyOf(principal, () => req.ip),
      options.burst,
    );
    if (message.method === 'logging/setLevel') {
      const level = (message.params as { level?: unknown } | undefined)?.level;
      if (typeof level !== 'string' || !LOG_LEVELS.includes(level))
        return void res.json(
          rpcError(message.id, {
            code: RPC_ERRORS.INVALID_PARAMS,
            message: 'Invalid params: level must be a log level.',
          }),
        );
      // The level is the client's wish for this session; the messages tools send are few, so all of them are sent.
      return void send({});
    }
    if (message.method === 'tools/list') {
      if (burst && !burst.allowed) {
        sendFrameworkError(res, message.id, rateLimited(burst));
        return;
      }
      const snapshot = principal.kind === 'user' ? await readUserSnapshot(options.directory, principal.userId) : null;
      const tools = [...(options.catalogue.catalogue(instance)?.values() ?? [])]
        .filter((entry) => entry.listed && isToolVisible(entry, principal, snapshot, options.roles))
        .map((entry) => entry.descriptor);
      res.setHeader('cache-control', 'private, max-age=60');
      return void send({ tools, ...(era.stateless ? CATALOGUE_CACHE : {}) });
    }
    await callTool(
      req,
      res,
      message,
      era,
      instance,
      principal,
      metadata,
      burst && !burst.allowed ? rateLimited(burst) : undefined,
    );
  };

  /** A client's answer to one of the server's own requests: authenticated, handed to the waiting call, 202. */
  const answer = async (
    req: Request,
    res: Response,
    instance: string | undefined,
    body: { id: unknown; result?: unknown; error?: unknown },
  ) => {
    const audience = options.resourceServers.audienceOf(ResourceServerKind.MCP, instance);
    const metadata = `${new URL(options.issuer).origin}/.well-known/oauth-protected-resource${new URL(audience).pathname}`;
    const principal = await authenticate(
      req,
      res,
      { jsonrpc: '2.0', id: null, method: '' } as JsonRpcMessage,
      audience,
      metadata,
    );
    if (!principal) return;
    const delivered = await options.replies?.deliver(requesterKeyOf(principal), body);
    if (!delivered)
      return void res
        .status(400)
        .json(
          rpcError(null, { code: RPC_ERRORS.INVALID_REQUEST, message: 'This answer names no request of this server.' }),
        );
    res.status(202).end();
  };

  const authenticate = async (
    req: Request,
    res: Response,
    message: JsonRpcMessage,
    audience: string,
    metadata: string,
  ): Promise<AuthenticatedPrincipal | null> => {
    try {
      const principal = await options.authenticator.authenticate(req.get('authorization'), audience);
      if (principal) {
        httpState(res).principal = principal;
        return principal;
      }
      res.status(401).setHeader('www-authenticate', `Bearer resource_metadata="${metadata}"`);
      res.json(
        rpcFrameworkError(
          message.id,
          new FrameworkError('UNAUTHENTICATED', 'Authentication required.', { reason: 'no_credential' }),
        ),
      );
    } catch (error) {
      const framework = toFrameworkError(error);
      if (framework.code === 'UNAUTHENTICATED') {
        res.status(401).setHeader('www-authenticate', `Bearer error="invalid_token", resource_metadata="${metadata}"`);
        res.json(rpcFrameworkError(message.id, framework));
        return null;
      }
      // Not a verdict on the token (e.g. the identity directory is unreachable): an `invalid_token` challenge
      // would make the client discard a good token, so answer with the failure's own status and retry hint.
      if (framework.code === 'INTERNAL')
        options.logger.error('MCP authentication failed', { error: String(framework.cause ?? error) });
      sendFrameworkError(res, message.id, framework);
    }
    return null;
  };

  const callTool = async (
    req: Request,
    res: Response,
    message: JsonRpcMessage,
    era: McpEra,
    instance: string | undefined,
    principal: AuthenticatedPrincipal,
    metadata: string,
    throttled: FrameworkError | undefined,
  ) => {
    const params = message.params ?? {};
    const name = params.name;
    const args = params.arguments ?? {};
    if (typeof name !== 'string' || typeof args !== 'object' || args === null || Array.isArray(args)) {
      return void res.status(era.stateless ? 400 : 200).json(
        rpcError(message.id, {
          code: RPC_ERRORS.INVALID_PARAMS,
          message: 'Invalid params: tools/call needs a name and an object of arguments.',
        }),
      );
    }
    let sse = false;
    let alive: StreamKeepAlive | undefined;
    const write = (payload: unknown) => {
      alive?.touch();
      if (!res.writableEnded && !res.destroyed) res.write(`event: message\ndata: ${JSON.stringify(payload)}\n\n`);
    };
    const meta = params._meta as { progressToken?: unknown; 'dev.wildo/approvalId'?: unknown } | undefined;
    const token = meta?.progressToken;
    const streamable = (req.get('accept') ?? '').includes('text/event-stream');
    // The handshake revisions' server requests and log messages need the call's answer to stream.
    const asks = !era.stateless && streamable && options.replies !== undefined;
    // Streams only within the principal's stream budget; beyond it the call answers in one response.
    const release = (token !== undefined || asks) && streamable ? streamSlot(options.streams, principal) : undefined;
    if (release) res.once('close', release);
    const openStream = () => {
      if (sse) return;
      sse = true;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      // A call quiet past the idle timeout loses its stream (its effect, if any, still happens).
      alive = options.streams.keepAlive(res, () => undefined);
    };
    const closed = new AbortController();
    res.once('close', () => closed.abort());
    const replies = options.replies;
    const client: McpClientChannel | undefined =
      release && asks && replies
        ? {
            notify: (method, notification) => {
              openStream();
              write({ jsonrpc: '2.0', method, params: notification });
            },
            request: (method, request) =>
              replies.ask(
                requesterKeyOf(principal),
                (id) => {
                  openStream();
                  write({ jsonrpc: '2.0', id, method, params: request });
                },
                closed.signal,
              ),
          }
        : undefined;
    const progress =
      release && token !== undefined
        ? async (value: number, total?: number) => {
            openStream();
            write({
              jsonrpc: '2.0',
              method: 'notifications/progress',
              params: { progressToken: token, progress: value, ...(total !== undefined ? { total } : {}) },
            });
          }
        : undefined;
    try {
      // The blanket principal throttle refuses a call as a governed result, like an operation's own policy.
      const result = throttled
        ? errorResult(name, throttled)
        : await traceMcpToolCall(
            { tool: name, protocolVersion: era.version, requestId: message.id, meta: params._meta },
            () =>
              options.calls.call({
                instance,
                principal,
                name,
                arguments: args as Record<string, unknown>,
                requestId: httpState(res).requestId,
                ...(era.clientCapabilities !== undefined ? { clientCapabilities: era.clientCapabilities } : {}),
                ...(progress ? { progress } : {}),
                ...(client ? { client } : {}),
                ...(era.stateless ? { stateless: true } : {}),
                ...(isRecord(params.inputResponses) ? { inputResponses: params.inputResponses } : {}),
                ...(params.requestState !== undefined ? { requestState: params.requestState } : {}),
                ...(typeof meta?.['dev.wildo/approvalId'] === 'string'
                  ? { approvalId: meta['dev.wildo/approvalId'] }
                  : {}),
              }),
          );
      const envelope = rpcResult(message.id, finish(era, result as unknown as Record<string, unknown>));
      if (sse) return void (write(envelope), res.end());
      res.json(envelope);
    } catch (error) {
      if (error instanceof JsonRpcWireError) {
        if (sse) return void (write(rpcError(message.id, error)), res.end());
        return void res.status(era.stateless ? error.status : 200).json(rpcError(message.id, error));
      }
      const framework = toFrameworkError(error);
      if (framework.code === 'UNAUTHENTICATED') {
        if (sse) return void res.end();
        // Every 401 names the protected resource metadata (MCP authorization), also when the check fails mid-call.
        return void res
          .status(401)
          .setHeader('www-authenticate', `Bearer error="invalid_token", resource_metadata="${metadata}"`)
          .json(rpcFrameworkError(message.id, framework));
      }
      if (sse) return void (write(rpcFrameworkError(message.id, framework)), res.end());
      sendFrameworkError(res, message.id, framework);
    }
  };

  router.all([MCP_PATH, `${MCP_PATH}/:instance`], handle);
  return router;
}

/** A stream slot of the principal, or undefined when all are taken (the call then answers without streaming). */
function streamSlot(streams: EventStreams, principal: AuthenticatedPrincipal): (() => void) | undefined {
  try {
    return streams.acquire(streamOwnerOf(principal));
  } catch {
    return undefined;
  }
}

/** Results of the methods anyone may call: the handshake and stateless discovery. */
function publicResult(message: JsonRpcMessage): Record<string, unknown> {
  if (message.method === 'initialize') {
    const asked = message.params?.protocolVersion;
    // A supported revision is echoed; any other gets the newest handshake revision, for the client to check.
    const version =
      typeof asked === 'string' && HANDSHAKE_PROTOCOL_VERSIONS.includes(asked) ? asked : HANDSHAKE_PROTOCOL_VERSIONS[0];
    return { protocolVersion: version, capabilities: HANDSHAKE_CAPABILITIES, serverInfo: SERVER_INFO };
  }
  if (message.method === 'server/discover')
    return {
      supportedVersions: [...STATELESS_PROTOCOL_VERSIONS],
      capabilities: CAPABILITIES,
      serverInfo: SERVER_INFO,
      ...CATALOGUE_CACHE,
    };
  return {};
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Stateless results say they are complete (unless they ask for input) and name the server. */
function finish(era: McpEra, result: Record<string, unknown>): Record<string, unknown> {
  if (!era.stateless) return result;
  return {
    resultType: 'complete',
    ...result,
    _meta: { ...(result._meta as Record<string, unknown> | undefined), [META_SERVER_INFO]: SERVER_INFO },
  };
}
