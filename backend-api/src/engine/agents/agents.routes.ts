import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { toFrameworkError } from '../errors/index.js';
import {
  errorEnvelope,
  EventStreams,
  httpState,
  param,
  requirePrincipal,
  sendData,
  streamOwnerOf,
} from '../routing/index.js';
import type { Logger } from '../logging/index.js';
import { traceAgentTurn } from '../observability/index.js';
import { parseContract } from '../resources/index.js';
import type { ApprovalService } from './approvals/index.js';
import { MAX_USER_MESSAGE_CHARS, type ConversationService, type TurnEvent } from './runtime/index.js';

/** Options of {@link createAgentsRouter}. */
export interface AgentsRouterOptions {
  conversations: ConversationService;
  approvals: ApprovalService;
  logger: Logger;
  /** Open streams per principal, heartbeats and the idle timeout of turns (default `DEFAULT_EVENT_STREAM_SETTINGS`). */
  streams?: EventStreams;
}

const TurnBody = z.strictObject({
  message: z.string().min(1).max(MAX_USER_MESSAGE_CHARS),
  executionId: z.uuid().optional(),
});

const DecisionBody = z.strictObject({
  approvalToken: z.string().min(1).max(200),
  decision: z.enum(['approve', 'deny']),
  modifiedArguments: z.record(z.string(), z.unknown()).optional(),
});

const PendingQuery = z.strictObject({ executionId: z.uuid().optional() });

/**
 * Streams a turn as server-sent events. The first event is produced before any header is sent, so admission
 * refusals (authentication, roles, budget, a busy conversation) are ordinary HTTP errors; later failures arrive
 * as an `error` event. A client that goes away aborts the turn (the model call and any queued work).
 */
async function streamTurn(
  res: Response,
  logger: Logger,
  streams: EventStreams,
  run: (signal: AbortSignal) => AsyncGenerator<TurnEvent, void>,
): Promise<void> {
  res.once('close', streams.acquire(streamOwnerOf(requirePrincipal(res))));
  const abort = abortOnDisconnect(res);
  const events = run(abort.signal);
  const first = await events.next();
  res.status(200);
  res.setHeader('content-type', 'text/event-stream; charset=utf-8');
  res.setHeader('cache-control', 'no-cache, no-transform');
  res.setHeader('x-accel-buffering', 'no');
  res.flushHeaders();
  // A turn with nothing to say for the idle timeout (a model that hangs) is stopped, not left to hold the stream.
  const alive = streams.keepAlive(res, () => abort.abort(new Error('the turn was idle for too long')));
  const send = (event: string, data: unknown) => {
    alive.touch();
    if (!res.writableEnded && !res.destroyed) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  try {
    if (!first.done) send(first.value.type, first.value);
    if (!first.done) for await (const event of events) send(event.type, event);
  } catch (error) {
    if (!abort.signal.aborted) {
      const framework = toFrameworkError(error);
      const { requestId } = httpState(res);
      if (framework.status >= 500)
        logger[framework.code === 'INTERNAL' ? 'error' : 'warn']('turn failed', {
          requestId,
          code: framework.code,
          error: String(framework.cause ?? error),
        });
      send('error', errorEnvelope(framework, requestId));
    }
  } finally {
    alive.stop();
    res.end();
  }
}

/** Aborts when the client disconnects before the response is complete. */
function abortOnDisconnect(res: Response): AbortController {
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort(new Error('client disconnected'));
  });
  return abort;
}

/**
 * The conversational routes of actor systems under `/api/v1`:
 * - `POST /flows-actors/systems/:systemRef/turns` and `POST /organizations/:organizationId/flows-actors/systems/:systemRef/turns`:
 *   start (no `executionId`) or continue a conversation; the turn streams as SSE;
 * - `POST /flows-actors/approvals/:approvalId/decision`: approve, deny or modify a paused call; the rest of the turn streams;
 * - `GET /flows-actors/approvals[?executionId=]`: the caller's pending approvals, per conversation or across them;
 * - `GET /flows-actors/executions/:executionId/messages`: a conversation reloaded by its owner.
 */
export function createAgentsRouter(options: AgentsRouterOptions): Router {
  const { conversations, approvals, logger } = options;
  const streams = options.streams ?? new EventStreams();
  const router = Router();

  const startTurn = async (req: Request, res: Response) => {
    const principal = requirePrincipal(res);
    const body = parseContract(TurnBody, req.body);
    const organizationId = param(req, 'organizationId');
    await streamTurn(res, logger, streams, (signal) =>
      traceAgentTurn(
        param(req, 'systemRef'),
        conversations.startTurn({
          systemRef: param(req, 'systemRef'),
          message: body.message,
          ...(body.executionId ? { executionId: body.executionId } : {}),
          principal,
          ...(organizationId ? { organizationId } : {}),
          requestId: httpState(res).requestId,
          surface: 'rest',
          signal,
        }),
      ),
    );
  };
  router.post('/flows-actors/systems/:systemRef/turns', startTurn);
  router.post('/organizations/:organizationId/flows-actors/systems/:systemRef/turns', startTurn);

  router.post('/flows-actors/approvals/:approvalId/decision', async (req, res) => {
    const principal = requirePrincipal(res);
    const body = parseContract(DecisionBody, req.body);
    await streamTurn(res, logger, streams, (signal) =>
      conversations.resumeAfterDecision({
        approvalId: param(req, 'approvalId'),
        approvalToken: body.approvalToken,
        decision: body.decision,
        ...(body.modifiedArguments ? { modifiedArguments: body.modifiedArguments } : {}),
        principal,
        requestId: httpState(res).requestId,
        surface: 'rest',
        signal,
      }),
    );
  });

  router.get('/flows-actors/approvals', async (req, res) => {
    const principal = requirePrincipal(res);
    const query = parseContract(PendingQuery, req.query);
    sendData(res, 200, await approvals.listPending(principal, query.executionId));
  });

  router.get('/flows-actors/executions/:executionId/messages', async (req, res) => {
    const principal = requirePrincipal(res);
    sendData(res, 200, await conversations.transcript(principal, param(req, 'executionId')));
  });

  return router;
}
