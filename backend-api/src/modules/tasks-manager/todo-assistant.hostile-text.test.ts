import { describe, expect, it } from 'vitest';
import { eventsOf, postStream, useAssistantBackend } from '../../testing/agents.fixtures.js';
import { textReply, toolCallsReply } from '../../testing/llm-stubs/index.js';
import { useTestDatabase } from '../../testing/test-backend.js';
import { STORABLE_TEXT_EXPECTATION } from '../../engine/resources/schema/index.js';

const READ = 'resource_todos_read';

/**
 * Text the database cannot store (NUL, lone surrogates) in an agent turn: a person's message is refused before the
 * model is called; the model's own tool arguments are refused as a tool result it reads; the model's own text is
 * repaired and stored, so the conversation goes on.
 */
describe('todo assistant: text the database cannot store', () => {
  const assistant = useAssistantBackend(useTestDatabase(), 'owner');
  const { stub } = assistant;

  const transcriptOf = async (executionId: string) => {
    const res = await assistant.t.api
      .get(`/api/v1/flows-actors/executions/${executionId}/messages`)
      .set(assistant.owner.auth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as {
      status: string;
      messages: { role: string; content: unknown; toolCalls?: { arguments: unknown }[] }[];
    };
  };

  it('answers a storable message with the model (control)', async () => {
    stub.enqueue(textReply('Hello there.'));
    const res = await postStream(assistant.t.api, assistant.turns, assistant.owner.auth, { message: 'Hi 👋 e\u0301' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(stub.requests).toHaveLength(1);
  });

  it.each([
    ['a NUL', 'hello \u0000 there'],
    ['a lone high surrogate', 'hello \ud800 there'],
    ['a lone low surrogate', 'hello \udc00 there'],
  ])('refuses a message with %s as input_invalid before any model call', async (_label, message) => {
    const res = await postStream(assistant.t.api, assistant.turns, assistant.owner.auth, { message });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      reason: 'input_invalid',
      problems: [{ path: 'message', expected: STORABLE_TEXT_EXPECTATION }],
    });
    expect(JSON.stringify(res.body)).not.toContain('hello');
    expect(stub.requests, 'the model was not called').toHaveLength(0);
  });

  it('runs a tool call whose arguments are storable (control)', async () => {
    const created = await assistant.t.api
      .post(`/api/v1/organizations/${assistant.orgId}/todos`)
      .set(assistant.owner.auth)
      .send({ title: 'Water plants' });
    stub.enqueue(
      toolCallsReply([{ id: 'call-ok', name: READ, arguments: { id: created.body.data._id as string } }]),
      textReply('Found it.'),
    );
    const res = await postStream(assistant.t.api, assistant.turns, assistant.owner.auth, { message: 'Read my todo.' });
    expect(eventsOf(res.turn, 'tool_result')[0]).toMatchObject({ toolCallId: 'call-ok', outcome: { ok: true } });
  });

  it('refuses a model’s tool arguments holding a lone surrogate as a result the model reads, and keeps the conversation', async () => {
    stub.enqueue(
      toolCallsReply([{ id: 'call-bad', name: READ, arguments: { id: 'abc\ud800' } }]),
      textReply('Sorry, that id was malformed.'),
    );
    const res = await postStream(assistant.t.api, assistant.turns, assistant.owner.auth, {
      message: 'Read the todo with a strange id.',
    });
    expect(res.status).toBe(200);
    expect(eventsOf(res.turn, 'tool_result')[0]).toMatchObject({
      toolCallId: 'call-bad',
      outcome: {
        ok: false,
        error: {
          code: 'VALIDATION_FAILED',
          reason: 'input_invalid',
          problems: [{ path: 'id', expected: STORABLE_TEXT_EXPECTATION }],
        },
      },
    });
    expect(eventsOf(res.turn, 'turn_completed')[0]).toMatchObject({ status: 'completed' });
    // The refusal went back to the model as an error result.
    expect(JSON.stringify(stub.requests[1]!.body)).toContain('input_invalid');
    const transcript = await transcriptOf(eventsOf(res.turn, 'execution')[0]!.executionId);
    expect(transcript.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(transcript.messages[1]!.toolCalls?.[0]?.arguments).toEqual({ id: 'abc\ufffd' });
  });

  it('stores a model’s answer holding NUL and lone surrogates repaired, and the conversation goes on', async () => {
    stub.enqueue(textReply('Done\u0000 \ud800 and \udc00 😀.'));
    const first = await postStream(assistant.t.api, assistant.turns, assistant.owner.auth, {
      message: 'Say something odd.',
    });
    expect(eventsOf(first.turn, 'turn_completed')[0]).toMatchObject({ status: 'completed' });
    const executionId = eventsOf(first.turn, 'execution')[0]!.executionId;
    expect((await transcriptOf(executionId)).messages[1]).toMatchObject({
      role: 'assistant',
      content: 'Done \ufffd and \ufffd 😀.',
    });
    stub.enqueue(textReply('Still here.'));
    const next = await postStream(assistant.t.api, assistant.turns, assistant.owner.auth, {
      message: 'Are you there?',
      executionId,
    });
    expect(eventsOf(next.turn, 'turn_completed')[0]).toMatchObject({ status: 'completed' });
    expect((await transcriptOf(executionId)).messages.map((m) => m.content)).toEqual([
      'Say something odd.',
      'Done \ufffd and \ufffd 😀.',
      'Are you there?',
      'Still here.',
    ]);
  });
});
