import { createServer, type Server } from 'node:http';
import { CORE_ORG_ROLES, LLM_Model, type ActorSystem } from '@wildo/shared-lib';
import { TasksManager_ResourceType } from '@wildo/shared-lib/app';
import express, { type Express, type Response } from 'express';
import supertest from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { referenceApplication } from '../../../modules/index.js';
import { eventsOf, parseSse, postStream } from '../../../testing/agents.fixtures.js';
import { addMember, createOrganization, signUp, type TestUser } from '../../../testing/identity.fixtures.js';
import { AnthropicStub, deferred, textReply, toolCallsReply, type Deferred } from '../../../testing/llm-stubs/index.js';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../../testing/test-backend.js';
import { defineBackendApplication } from '../../bootstrap/backend-domain-module.js';
import {
  actor,
  actorSystem,
  flowsModule,
  languageAgent,
  organizationActorSystem,
} from '../systems/agents-registry.fixtures.js';
import type { FunctionTool } from '../tools/function-tool.types.js';

// ---------------------------------------------------------------------------------------------------------------
// The application: the reference modules (todos) plus a module with an echo tool behind a 2-step bound, and a
// custom tool that removes a todo through its caller (todos DELETE is for ORG_MANAGER and above).
// ---------------------------------------------------------------------------------------------------------------

const ECHO = 'loop_echo';
const REMOVE = 'loop_todos_remove';
const MAX_TOOL_STEPS = 2;

/** Every run of the echo tool, in order (reset after each test). */
const echoRuns: string[] = [];

const echoTool: FunctionTool = {
  functionRef: 'loop.echo',
  description: 'Echoes a short text.',
  inputSchema: z.object({ text: z.string().max(100) }),
  async execute(args) {
    const { text } = args as { text: string };
    echoRuns.push(text);
    return { echoed: text };
  },
};

/** A custom tool: its caller dispatches as the conversation's owner, so the operation's roles apply. */
const removeTodoTool: FunctionTool = {
  functionRef: 'loop.todos.remove',
  description: 'Removes one todo by id.',
  inputSchema: z.object({ id: z.string().min(1).max(64) }),
  async execute(args, ctx) {
    const { id } = args as { id: string };
    await ctx.records(TasksManager_ResourceType.TODOS).delete(id);
    return { removed: id };
  },
};

const ECHO_AGENT = languageAgent({
  ref: 'loop.echo.agent',
  model: LLM_Model.CLAUDE_SONNET_5,
  capabilities: { tools: { functionRefs: [echoTool.functionRef] } },
});
const TODOS_AGENT = languageAgent({
  ref: 'loop.todos.agent',
  model: LLM_Model.CLAUDE_SONNET_5,
  capabilities: { tools: { functionRefs: [removeTodoTool.functionRef] } },
});

/** USER-scoped, at most two tool rounds per turn. */
function echoSystem(): ActorSystem {
  const system = actorSystem('loop-echo', [actor('loop-echo.operator', ECHO_AGENT.ref)]);
  return { ...system, config: { ...system.config, maxToolSteps: MAX_TOOL_STEPS } };
}

/** ORGANIZATIONS-scoped, for every member. */
function todosSystem(): ActorSystem {
  return organizationActorSystem('loop-todos', [actor('loop-todos.operator', TODOS_AGENT.ref)]);
}

const loopModule = flowsModule('conversation-loop', {
  agents: [ECHO_AGENT, TODOS_AGENT],
  functionTools: [echoTool, removeTodoTool],
  flowActorSystemsFactoryMap: { 'loop-echo': echoSystem, 'loop-todos': todosSystem },
});

const application = defineBackendApplication({
  ...referenceApplication,
  modules: [...referenceApplication.modules, loopModule],
});

const ECHO_TURNS = '/api/v1/flows-actors/systems/loop-echo/turns';

/** The Anthropic `tool_result` blocks of a recorded request, by tool call id. */
function toolResultsOf(body: {
  messages: { role: string; content: unknown }[];
}): Map<string, { content: string; is_error?: boolean }> {
  const results = new Map<string, { content: string; is_error?: boolean }>();
  for (const message of body.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as {
      type: string;
      tool_use_id?: string;
      content?: string;
      is_error?: boolean;
    }[]) {
      if (block.type === 'tool_result')
        results.set(block.tool_use_id!, {
          content: block.content ?? '',
          ...(block.is_error ? { is_error: true } : {}),
        });
    }
  }
  return results;
}

/**
 * The backend's app behind a listening server, with a promise per request (keyed by `x-test-id`) that settles
 * when the route ends its response: for a streamed turn, only after the turn let go of the conversation.
 */
function trackedServer(app: Express): {
  server: Server;
  api: supertest.Agent;
  ended: (id: string) => Promise<void>;
  close(): Promise<void>;
} {
  const endings = new Map<string, Deferred>();
  const ending = (id: string) => {
    let entry = endings.get(id);
    if (!entry) endings.set(id, (entry = deferred()));
    return entry;
  };
  const outer = express();
  outer.use((req, res, next) => {
    const id = req.get('x-test-id');
    if (id) {
      const end = res.end.bind(res) as (...args: unknown[]) => Response;
      res.end = ((...args: unknown[]) => {
        const result = end(...args);
        ending(id).resolve();
        return result;
      }) as Response['end'];
    }
    next();
  });
  outer.use(app);
  const server = createServer(outer);
  return {
    server,
    api: supertest.agent(server),
    ended: (id) => ending(id).promise,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('the conversation loop over HTTP', () => {
  const db = useTestDatabase();
  const stub = new AnthropicStub();
  let t: TestBackend;
  let user: TestUser;

  beforeAll(async () => {
    await stub.start();
    t = await createTestBackend(db(), {
      application,
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: stub.baseURL },
      providers: { maxRetries: 0 },
    });
    user = await signUp(t.api, 'loop-user');
  });
  afterEach(() => {
    expect(stub.pending, 'every scripted model reply was used').toBe(0);
    stub.reset();
    echoRuns.length = 0;
  });
  afterAll(async () => {
    await t?.close();
    await stub.close();
  });

  const executionIdOf = (turn: Awaited<ReturnType<typeof postStream>>['turn']) =>
    eventsOf(turn, 'execution')[0]!.executionId;

  describe('the step bound (maxToolSteps: 2)', () => {
    it('completes a turn that stays within the bound', async () => {
      stub.enqueue(
        toolCallsReply([{ id: 'in-1', name: ECHO, arguments: { text: 'one' } }]),
        toolCallsReply([{ id: 'in-2', name: ECHO, arguments: { text: 'two' } }]),
        textReply('Echoed twice.'),
      );
      const res = await postStream(t.api, ECHO_TURNS, user.auth, { message: 'Echo one, then two.' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(eventsOf(res.turn, 'turn_completed')[0]).toMatchObject({ status: 'completed' });
      expect(eventsOf(res.turn, 'tool_result').map((e) => e.outcome)).toEqual([
        { ok: true, result: { echoed: 'one' } },
        { ok: true, result: { echoed: 'two' } },
      ]);
      expect(echoRuns).toEqual(['one', 'two']);
    });

    it('ends with max_steps when the model keeps asking for tools, without running the call past the bound', async () => {
      stub.enqueue(
        toolCallsReply([{ id: 'over-1', name: ECHO, arguments: { text: 'one' } }]),
        toolCallsReply([{ id: 'over-2', name: ECHO, arguments: { text: 'two' } }]),
        toolCallsReply([{ id: 'over-3', name: ECHO, arguments: { text: 'three' } }]),
      );
      const res = await postStream(t.api, ECHO_TURNS, user.auth, { message: 'Echo forever.' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(eventsOf(res.turn, 'turn_completed')).toEqual([expect.objectContaining({ status: 'max_steps' })]);
      expect(eventsOf(res.turn, 'tool_call').map((e) => e.toolCallId)).toEqual(['over-1', 'over-2', 'over-3']);
      const results = eventsOf(res.turn, 'tool_result');
      expect(results.filter((e) => e.outcome.ok).map((e) => e.toolCallId)).toEqual(['over-1', 'over-2']);
      // The call past the bound is not run (if the stream reports it at all, it says so).
      for (const late of results.filter((e) => e.toolCallId === 'over-3'))
        expect(late.outcome).toMatchObject({ ok: false, error: { code: 'NOT_RUN' } });
      expect(echoRuns).toEqual(['one', 'two']);
      expect(stub.requests).toHaveLength(3);
    });

    it('answers the call past the bound as NOT_RUN in the next request’s history', async () => {
      stub.enqueue(
        toolCallsReply([{ id: 'seal-1', name: ECHO, arguments: { text: 'one' } }]),
        toolCallsReply([{ id: 'seal-2', name: ECHO, arguments: { text: 'two' } }]),
        toolCallsReply([{ id: 'seal-3', name: ECHO, arguments: { text: 'three' } }]),
      );
      const first = await postStream(t.api, ECHO_TURNS, user.auth, { message: 'Echo forever.' });
      expect(eventsOf(first.turn, 'turn_completed')[0]).toMatchObject({ status: 'max_steps' });

      stub.enqueue(textReply('I stopped at the limit.'));
      const next = await postStream(t.api, ECHO_TURNS, user.auth, {
        message: 'Why did you stop?',
        executionId: executionIdOf(first.turn),
      });
      expect(next.status, JSON.stringify(next.body)).toBe(200);
      expect(eventsOf(next.turn, 'turn_completed')[0]).toMatchObject({ status: 'completed' });
      const results = toolResultsOf(stub.requests.at(-1)!.body);
      expect(results.get('seal-3')).toMatchObject({ is_error: true });
      expect(JSON.parse(results.get('seal-3')!.content)).toMatchObject({ error: { code: 'NOT_RUN' } });
      // The calls within the bound kept their real results.
      expect(JSON.parse(results.get('seal-2')!.content)).toEqual({ echoed: 'two' });
      expect(echoRuns).toEqual(['one', 'two']);
    });
  });

  describe('calls the model gets wrong', () => {
    it('answers an unknown tool name with NOT_FOUND and goes on to the model’s final text', async () => {
      stub.enqueue(
        toolCallsReply([
          { id: 'unknown', name: 'delete_everything', arguments: {} },
          { id: 'known', name: ECHO, arguments: { text: 'still here' } },
        ]),
        textReply('That tool does not exist.'),
      );
      const res = await postStream(t.api, ECHO_TURNS, user.auth, { message: 'Try something.' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const [unknown, known] = eventsOf(res.turn, 'tool_result');
      expect(unknown).toMatchObject({
        toolCallId: 'unknown',
        functionRef: 'delete_everything',
        outcome: { ok: false, error: { code: 'NOT_FOUND' } },
      });
      expect(known).toMatchObject({ toolCallId: 'known', outcome: { ok: true, result: { echoed: 'still here' } } });
      expect(
        eventsOf(res.turn, 'text_delta')
          .map((e) => e.text)
          .join(''),
      ).toBe('That tool does not exist.');
      expect(eventsOf(res.turn, 'turn_completed')[0]).toMatchObject({ status: 'completed' });
      expect(toolResultsOf(stub.requests[1]!.body).get('unknown')).toMatchObject({ is_error: true });
    });

    it.each([
      // An undeclared field is named with the contract's fields; the model's values are not echoed back.
      ['an unknown field', { text: 'hi', admin: true }, { path: 'admin', expected: 'a declared field: text' }],
      ['a wrong type', { text: 42 }, { path: 'text' }],
    ])(
      'refuses arguments with %s as VALIDATION_FAILED input_invalid, without running the tool',
      async (_label, badArguments, problem) => {
        stub.enqueue(
          toolCallsReply([
            { id: 'bad', name: ECHO, arguments: badArguments },
            { id: 'good', name: ECHO, arguments: { text: 'valid' } },
          ]),
          textReply('Fixed my arguments.'),
        );
        const res = await postStream(t.api, ECHO_TURNS, user.auth, { message: 'Echo something.' });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const [bad, good] = eventsOf(res.turn, 'tool_result');
        expect(bad).toMatchObject({
          toolCallId: 'bad',
          functionRef: 'loop.echo',
          outcome: { ok: false, error: { code: 'VALIDATION_FAILED', reason: 'input_invalid' } },
        });
        expect(bad!.outcome).toMatchObject({ error: { problems: [expect.objectContaining(problem)] } });
        expect(good).toMatchObject({ toolCallId: 'good', outcome: { ok: true, result: { echoed: 'valid' } } });
        expect(echoRuns).toEqual(['valid']);
        expect(eventsOf(res.turn, 'turn_completed')[0]).toMatchObject({ status: 'completed' });
        expect(toolResultsOf(stub.requests[1]!.body).get('bad')).toMatchObject({ is_error: true });
      },
    );
  });

  describe('a custom tool calling through its caller', () => {
    let owner: TestUser;
    let orgId: string;
    let turns: string;

    beforeAll(async () => {
      owner = await signUp(t.api, 'loop-owner');
      orgId = await createOrganization(t.api, owner);
      turns = `/api/v1/organizations/${orgId}/flows-actors/systems/loop-todos/turns`;
    });

    async function createTodo(title: string): Promise<string> {
      const res = await t.api.post(`/api/v1/organizations/${orgId}/todos`).set(owner.auth).send({ title });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data._id as string;
    }

    const todoStatus = async (id: string) =>
      (await t.api.get(`/api/v1/organizations/${orgId}/todos/${id}`).set(owner.auth)).status;

    async function askToRemove(caller: TestUser, id: string, callId: string) {
      stub.enqueue(toolCallsReply([{ id: callId, name: REMOVE, arguments: { id } }]), textReply('Done.'));
      const res = await postStream(t.api, turns, caller.auth, { message: 'Remove that todo.' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(eventsOf(res.turn, 'turn_completed')[0]).toMatchObject({ status: 'completed' });
      return eventsOf(res.turn, 'tool_result')[0]!;
    }

    it('refuses a member without the operation’s role (FORBIDDEN role_refused) and leaves the record', async () => {
      const member = await signUp(t.api, 'loop-member');
      await addMember(t.api, owner, orgId, member, CORE_ORG_ROLES.ORG_MEMBER);
      const id = await createTodo('Keep me');
      const result = await askToRemove(member, id, 'member-remove');
      expect(result).toMatchObject({
        functionRef: 'loop.todos.remove',
        outcome: { ok: false, error: { code: 'FORBIDDEN', reason: 'role_refused' } },
      });
      expect(await todoStatus(id)).toBe(200);
    });

    it('runs the operation for a member holding the role', async () => {
      const manager = await signUp(t.api, 'loop-manager');
      await addMember(t.api, owner, orgId, manager, CORE_ORG_ROLES.ORG_MANAGER);
      const id = await createTodo('Remove me');
      const result = await askToRemove(manager, id, 'manager-remove');
      expect(result).toMatchObject({
        functionRef: 'loop.todos.remove',
        outcome: { ok: true, result: { removed: id } },
      });
      expect(await todoStatus(id)).toBe(404);
    });
  });

  describe('one turn at a time per conversation', () => {
    it('refuses a second concurrent turn with 409 CONFLICT; after the first ends, the next turn is accepted', async () => {
      stub.enqueue(textReply('Hello.'));
      const opened = await postStream(t.api, ECHO_TURNS, user.auth, { message: 'Hi' });
      const executionId = executionIdOf(opened.turn);

      const hold = deferred();
      try {
        stub.enqueue(textReply('First turn answer.', { waitFor: hold.promise }));
        const inFlight = postStream(t.api, ECHO_TURNS, user.auth, { message: 'First turn', executionId });
        // The model call is made only once the turn holds the conversation.
        await stub.waitForRequests(2);
        const concurrent = await postStream(t.api, ECHO_TURNS, user.auth, { message: 'Interleaved turn', executionId });
        expect(concurrent.status).toBe(409);
        expect(concurrent.body.error.code).toBe('CONFLICT');

        hold.resolve();
        const first = await inFlight;
        expect(first.status).toBe(200);
        expect(eventsOf(first.turn, 'turn_completed')[0]).toMatchObject({ status: 'completed' });
      } finally {
        hold.resolve();
      }

      stub.enqueue(textReply('Next answer.'));
      const next = await postStream(t.api, ECHO_TURNS, user.auth, { message: 'Next turn', executionId });
      expect(next.status, JSON.stringify(next.body)).toBe(200);
      expect(executionIdOf(next.turn)).toBe(executionId);
      const history = JSON.stringify(stub.requests.at(-1)!.body.messages);
      expect(history).toContain('First turn answer.');
      expect(history).not.toContain('Interleaved turn');
    });

    it('releases the conversation when the client disconnects mid-stream: the next turn is accepted', async () => {
      const tracked = trackedServer(t.backend.app);
      await new Promise<void>((resolve) => tracked.server.listen(0, '127.0.0.1', () => resolve()));
      const hold = deferred();
      try {
        stub.enqueue(textReply('Hello.'));
        const opened = await postStream(tracked.api, ECHO_TURNS, user.auth, { message: 'Hi' });
        expect(opened.status).toBe(200);
        const executionId = executionIdOf(opened.turn);

        stub.enqueue(textReply('A long answer that is cut short', { holdAfterFirstDelta: hold.promise }));
        const firstDelta = deferred();
        let received = '';
        /** The whole events received so far (a chunk may end inside one). */
        const receivedEvents = () => parseSse(received.slice(0, received.lastIndexOf('\n\n') + 2));
        const request = tracked.api
          .post(ECHO_TURNS)
          .set(user.auth)
          .set('x-test-id', 'disconnecting-turn')
          .send({ message: 'Tell me a long story', executionId })
          .buffer(true)
          .parse((response, done) => {
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => {
              received += chunk;
              if (receivedEvents().some((e) => e.event === 'text_delta')) firstDelta.resolve();
            });
            response.on('end', () => done(null, received));
            response.on('error', () => done(null, received));
          });
        void request.then(
          () => undefined,
          () => undefined,
        );
        await firstDelta.promise;
        expect(receivedEvents().map((e) => e.event)).toEqual(['execution', 'text_delta']);
        request.abort();
        // The route ends its response only after the turn has let go of the conversation.
        await tracked.ended('disconnecting-turn');
        expect(stub.requests).toHaveLength(2);

        stub.enqueue(textReply('Where were we?'));
        const next = await postStream(tracked.api, ECHO_TURNS, user.auth, { message: 'Still there?', executionId });
        expect(next.status, JSON.stringify(next.body)).toBe(200);
        expect(executionIdOf(next.turn)).toBe(executionId);
        expect(eventsOf(next.turn, 'turn_completed')[0]).toMatchObject({ status: 'completed' });
        expect(JSON.stringify(stub.requests.at(-1)!.body.messages)).toContain('Tell me a long story');
      } finally {
        hold.resolve();
        await tracked.close();
      }
    });
  });
});
