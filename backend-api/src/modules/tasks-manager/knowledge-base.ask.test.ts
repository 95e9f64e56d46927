import { beforeAll, describe, expect, it } from 'vitest';
import { modelToolName } from '../../engine/agents/systems/agent-tool-listing.js';
import { eventsOf, postStream, useAssistantBackend } from '../../testing/agents.fixtures.js';
import { createOrganization, signUp, type TestUser } from '../../testing/identity.fixtures.js';
import { textReply, toolCallsReply } from '../../testing/llm-stubs/index.js';
import { useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { KNOWLEDGE_BASE_ASK_TOOL_REF, type KnowledgeBaseAskToolResult } from './flows-actors/knowledge-base-tool.js';

const ASK_TOOL = modelToolName(KNOWLEDGE_BASE_ASK_TOOL_REF);

describe('the knowledge base: ASK and the todo assistant’s tool', () => {
  const assistant = useAssistantBackend(useTestDatabase(), 'kb-owner');
  const { stub } = assistant;
  let t: TestBackend;
  let owner: TestUser;
  let orgId: string;
  let turns: string;
  let policyId: string;
  let ask: string;
  beforeAll(async () => {
    ({ t, owner, orgId, turns } = assistant);
    ask = `/api/v1/organizations/${orgId}/knowledge-documents/ask`;
    const res = await t.api
      .post(`/api/v1/organizations/${orgId}/knowledge-documents`)
      .set(owner.auth)
      .send({ title: 'Expense policy', body: '# Meals\n\nMeals are reimbursed up to 40 EUR per day with a receipt.' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    policyId = res.body.data._id as string;
  });

  it('answers ASK with cited passages of the caller’s documents, lexically without an embeddings provider', async () => {
    const res = await t.api.post(ask).set(owner.auth).send({ question: 'How much are meals reimbursed?' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      mode: 'lexical',
      searchStatus: 'ok',
      embeddingStatus: 'absent',
      refusedResourceTypes: [],
    });
    expect(res.body.data.sources[0]).toMatchObject({ knowledgeDocumentId: policyId, header: 'Expense policy' });
    expect(res.body.data.context).toContain('40 EUR per day');
    const nothing = await t.api.post(ask).set(owner.auth).send({ question: 'parking garage badges' });
    expect(nothing.body.data).toMatchObject({ sources: [], searchStatus: 'ok', refusedResourceTypes: [] });
  });

  it('refuses a caller outside the organization before any search (a member is the control above), and bad input', async () => {
    const stranger = await signUp(t.api, 'kb-stranger');
    await createOrganization(t.api, stranger, 'Elsewhere');
    const res = await t.api.post(ask).set(stranger.auth).send({ question: 'How much are meals reimbursed?' });
    expect([403, 404]).toContain(res.status);
    expect(JSON.stringify(res.body)).not.toContain('40 EUR');
    const invalid = await t.api.post(ask).set(owner.auth).send({ question: 'x', limit: 1000 });
    expect(invalid.status).toBe(400);
  });

  it('lets the assistant answer from the tool’s passages, citing the document', async () => {
    stub.enqueue(
      toolCallsReply([{ id: 'kb-1', name: ASK_TOOL, arguments: { question: 'meal reimbursement limit' } }]),
      textReply('Meals are reimbursed up to 40 EUR per day [Expense policy].'),
    );
    const res = await postStream(t.api, turns, owner.auth, { message: 'What is the meal limit?' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [result] = eventsOf(res.turn, 'tool_result');
    expect(result?.functionRef).toBe(KNOWLEDGE_BASE_ASK_TOOL_REF);
    expect(result?.outcome.ok).toBe(true);
    const answer = (result!.outcome as { result: KnowledgeBaseAskToolResult }).result;
    expect(answer).toMatchObject({ outcome: 'matched', mode: 'lexical' });
    expect(answer.sources[0]).toMatchObject({ knowledgeDocumentId: policyId, header: 'Expense policy' });
    // The model received the passage to cite, and the tool's name and rules in its instructions.
    const second = stub.requests[1];
    expect(JSON.stringify(second?.body.messages)).toContain('40 EUR per day');
    expect(JSON.stringify(second?.body.system)).toContain('cite each document');
    expect(
      eventsOf(res.turn, 'text_delta')
        .map((e) => e.text)
        .join(''),
    ).toContain('[Expense policy]');
  });

  it('reports nothing-matched with a note instead of an empty success', async () => {
    stub.enqueue(
      toolCallsReply([{ id: 'kb-2', name: ASK_TOOL, arguments: { question: 'parking garage badges' } }]),
      textReply('No relevant passages were found.'),
    );
    const res = await postStream(t.api, turns, owner.auth, { message: 'Where do I get a parking badge?' });
    const [result] = eventsOf(res.turn, 'tool_result');
    const answer = (result!.outcome as { result: KnowledgeBaseAskToolResult }).result;
    expect(answer).toMatchObject({ outcome: 'nothing-matched', sources: [] });
    expect(answer.notes).toContain('No matching passages were found; do not substitute an unsupported answer.');
  });
});
