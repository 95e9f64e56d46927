import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../App';
import { TEST_TOKEN, currentUrl, openAt, signIn } from '../test-support/fixtures';
import {
  approvalFixture,
  jsonResponse,
  openSseStream,
  sse,
  sseResponse,
  stubFetch,
  type SentRequest,
} from './assistant.test-support';

const ORG = 'org-1';
const TURNS = `POST /api/v1/organizations/${ORG}/flows-actors/systems/todo-assistant/turns`;
const APPROVALS = 'GET /api/v1/flows-actors/approvals';
const DECISION = 'POST /api/v1/flows-actors/approvals/appr-1/decision';
const EXECUTION_ID = '7d4f5f36-2a7c-4c1e-9d55-3f1e1b2c9a10';
const USAGE = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

const execution = [
  'execution',
  { type: 'execution', executionId: EXECUTION_ID, systemRef: 'todo-assistant', agentRef: 'todo-assistant.chat.agent' },
] as [string, unknown];
const completed = (status = 'completed') =>
  ['turn_completed', { type: 'turn_completed', status, usage: USAGE }] as [string, unknown];

function openAssistant(routes: Record<string, (request: SentRequest) => Response | Promise<Response>>) {
  signIn();
  openAt(`/organizations/${ORG}/assistant`);
  const backend = stubFetch({ [APPROVALS]: () => jsonResponse({ data: [] }), ...routes });
  render(<App />);
  return backend;
}

function sendMessage(text: string) {
  fireEvent.change(screen.getByLabelText('Message'), { target: { value: text } });
  act(() => screen.getByRole('button', { name: 'Send' }).click());
}

/** A turn that pauses on an approval for renaming a todo. */
function pausedTurn(approval = approvalFixture()) {
  return sseResponse(
    sse(
      execution,
      ['text_delta', { type: 'text_delta', text: 'I will rename it.' }],
      [
        'tool_call',
        { type: 'tool_call', toolCallId: 'call-1', functionRef: 'todos.update', arguments: approval.arguments },
      ],
      ['approval_required', { type: 'approval_required', approval }],
      completed('awaiting_approval'),
    ),
  );
}

describe('todo assistant page', () => {
  it('streams the reply text into the conversation as it arrives', async () => {
    const stream = openSseStream();
    const backend = openAssistant({ [TURNS]: () => stream.response });

    expect(screen.getByRole('heading', { level: 1, name: 'Todo assistant' })).toBeTruthy();
    sendMessage('What is due today?');
    const log = screen.getByRole('log', { name: 'Conversation' });
    expect(log.getAttribute('aria-live')).toBe('polite');
    expect(within(log).getByText('What is due today?')).toBeTruthy();

    await act(async () => stream.write(sse(execution, ['text_delta', { type: 'text_delta', text: 'You have ' }])));
    expect(await within(log).findByText('You have')).toBeTruthy();
    await act(async () => stream.write('event: text_delta\ndata: {"type":"text_delta","text":"two todos."}\n'));
    await act(async () => stream.write(`\n${sse(completed())}`));
    stream.close();

    expect(await within(log).findByText('You have two todos.')).toBeTruthy();
    expect(await screen.findByText('The assistant finished replying.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    const [turn] = backend.to(TURNS);
    expect(turn).toMatchObject({
      authorization: `Bearer ${TEST_TOKEN}`,
      accept: 'text/event-stream',
      body: { message: 'What is due today?' },
    });
  });

  it('continues the conversation with its executionId', async () => {
    let turns = 0;
    const backend = openAssistant({
      [TURNS]: () =>
        sseResponse(sse(execution, ['text_delta', { type: 'text_delta', text: `Answer ${++turns}` }], completed())),
    });
    sendMessage('First');
    expect(await screen.findByText('Answer 1')).toBeTruthy();
    sendMessage('Second');
    expect(await screen.findByText('Answer 2')).toBeTruthy();
    expect(backend.to(TURNS).map((r) => r.body)).toEqual([
      { message: 'First' },
      { message: 'Second', executionId: EXECUTION_ID },
    ]);
  });

  it('shows an approval card and, on Approve, posts the token and renders the continued stream', async () => {
    const backend = openAssistant({
      [TURNS]: () => pausedTurn(),
      [DECISION]: () =>
        sseResponse(
          sse(
            [
              'approval_decided',
              {
                type: 'approval_decided',
                approvalId: 'appr-1',
                toolCallId: 'call-1',
                decision: 'approve',
                arguments: { id: 'todo-1', title: 'Weekly shop' },
              },
            ],
            [
              'tool_result',
              {
                type: 'tool_result',
                toolCallId: 'call-1',
                functionRef: 'todos.update',
                outcome: { ok: true, result: { _id: 'todo-1' } },
              },
            ],
            ['text_delta', { type: 'text_delta', text: 'Renamed to Weekly shop.' }],
            completed(),
          ),
        ),
    });
    sendMessage('Rename my groceries todo to Weekly shop');

    const card = (await screen.findByRole('heading', { level: 2, name: 'Approval needed' })).closest('section')!;
    expect(within(card).getAllByText(/update todo/i).length).toBeGreaterThan(0);
    expect(within(card).queryByText(/todos\.update/)).toBeNull();
    expect(within(card).getByText('Weekly shop')).toBeTruthy();
    expect(
      within(card)
        .getByText((_text, el) => el?.tagName === 'TIME')
        .getAttribute('datetime'),
    ).toBe('2030-11-05T10:15:00.000Z');
    expect(within(card).queryByRole('textbox')).toBeNull();
    expect(screen.getByText('The assistant is waiting for your approval.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);

    act(() => within(card).getByRole('button', { name: 'Approve' }).click());

    expect(await screen.findByText('Renamed to Weekly shop.')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Approval needed' })).toBeNull();
    expect(screen.getByText(/Approved and done/)).toBeTruthy();
    const [decision] = backend.to(DECISION);
    expect(decision).toMatchObject({ authorization: `Bearer ${TEST_TOKEN}`, accept: 'text/event-stream' });
    expect(decision!.body).toEqual({ approvalToken: 'token-abc', decision: 'approve' });
  });

  it('sends edited arguments as modifiedArguments when the tool allows it', async () => {
    const backend = openAssistant({
      [TURNS]: () => pausedTurn(approvalFixture({ allowArgumentModification: true })),
      [DECISION]: () => sseResponse(sse(['text_delta', { type: 'text_delta', text: 'Renamed.' }], completed())),
    });
    sendMessage('Rename it');

    // The card's form comes from the operation's fields: the title is a text field, the todo itself is not editable.
    const editor = await screen.findByLabelText<HTMLInputElement>('Title');
    expect(editor.value).toBe('Weekly shop');
    fireEvent.change(editor, { target: { value: 'Big shop' } });
    act(() => screen.getByRole('button', { name: 'Approve' }).click());
    expect(await screen.findByText('Renamed.')).toBeTruthy();
    expect(backend.to(DECISION)[0]!.body).toEqual({
      approvalToken: 'token-abc',
      decision: 'approve',
      modifiedArguments: { id: 'todo-1', title: 'Big shop' },
    });
  });

  it('denies and shows the rest of the turn', async () => {
    const backend = openAssistant({
      [TURNS]: () => pausedTurn(),
      [DECISION]: () =>
        sseResponse(
          sse(
            [
              'approval_decided',
              {
                type: 'approval_decided',
                approvalId: 'appr-1',
                toolCallId: 'call-1',
                decision: 'deny',
                arguments: { id: 'todo-1', title: 'Weekly shop' },
              },
            ],
            ['text_delta', { type: 'text_delta', text: 'Okay, I left it unchanged.' }],
            completed(),
          ),
        ),
    });
    sendMessage('Rename it');

    const deny = await screen.findByRole('button', { name: 'Deny' });
    act(() => deny.click());
    expect(await screen.findByText('Okay, I left it unchanged.')).toBeTruthy();
    expect(screen.getByText(/Denied by you/)).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Approval needed' })).toBeNull();
    expect(backend.to(DECISION)[0]!.body).toEqual({ approvalToken: 'token-abc', decision: 'deny' });
  });

  it('drops an approval the backend no longer accepts and says why', async () => {
    openAssistant({
      [TURNS]: () => pausedTurn(),
      [DECISION]: () =>
        jsonResponse(
          {
            error: {
              code: 'FORBIDDEN',
              message: 'This approval request has expired.',
              reason: 'approval_required',
              requestId: 'r2',
            },
          },
          403,
        ),
    });
    sendMessage('Rename it');

    const approve = await screen.findByRole('button', { name: 'Approve' });
    act(() => approve.click());
    expect((await screen.findByRole('alert')).textContent).toContain('This approval request has expired.');
    expect(screen.queryByRole('heading', { name: 'Approval needed' })).toBeNull();
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Try again' } });
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('marks a message refused for budget as not sent, with the renewal date in the person’s locale', async () => {
    const seconds = 3 * 86_400;
    openAssistant({
      [TURNS]: () =>
        jsonResponse(
          {
            error: {
              code: 'RATE_LIMITED',
              message:
                'The monthly AI token allowance is used up (10 of 10 tokens); it renews at 2030-12-01T00:00:00.000Z.',
              reason: 'budget_exhausted',
              requestId: 'r1',
            },
          },
          429,
          { 'Retry-After': String(seconds) },
        ),
    });
    sendMessage('Hello');

    const refusal = await screen.findByRole('alert');
    expect(refusal.closest('li')?.textContent).toContain('You (not sent)');
    expect(refusal.textContent).toContain(
      'Not sent. Your organization has used its assistant allowance for this month.',
    );
    const renews = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(
      new Date(Date.now() + seconds * 1000),
    );
    expect(refusal.textContent).toContain(renews);
    expect(refusal.textContent).not.toContain('RATE_LIMITED');
    expect(refusal.textContent).not.toContain('2030-12-01T00');
  });

  it('lists the conversation and reopens it after a reload, tool lines included', async () => {
    openAssistant({
      [TURNS]: () => pausedTurn(),
      [`GET /api/v1/flows-actors/executions/${EXECUTION_ID}/messages`]: () =>
        jsonResponse({
          data: {
            executionId: EXECUTION_ID,
            status: 'awaiting_approval',
            messages: [
              { role: 'user', content: 'Rename my groceries todo' },
              {
                role: 'assistant',
                content: 'I will rename it.',
                toolCalls: [{ id: 'call-1', name: 'todos_update', arguments: { id: 'todo-1', title: 'Weekly shop' } }],
              },
            ],
          },
        }),
    });
    sendMessage('Rename my groceries todo');
    expect(await screen.findByText(/Waiting for your approval/)).toBeTruthy();

    // A reload: the page starts empty, the conversation is listed, and opening it shows what was said.
    cleanup();
    render(<App />);
    fireEvent.click(await screen.findByText('Your conversations (1)'));
    const listed = await screen.findByRole('button', { name: 'Rename my groceries todo' });
    expect(screen.queryByText('I will rename it.')).toBeNull();
    act(() => listed.click());
    expect(await screen.findByText('I will rename it.')).toBeTruthy();
    expect(screen.getByText(/Update todo/)).toBeTruthy();
  });

  it('shows the message of an error event and never a raw failure', async () => {
    openAssistant({
      [TURNS]: () =>
        sseResponse(
          sse(execution, [
            'error',
            { error: { code: 'INTERNAL', message: 'An internal error occurred.', requestId: 'r9' } },
          ]),
        ),
    });
    sendMessage('Hello');
    expect((await screen.findByRole('alert')).textContent).toContain('An internal error occurred.');
  });

  it('refuses a stream with an invalid event', async () => {
    openAssistant({ [TURNS]: () => sseResponse(sse(execution, ['tool_call', { toolCallId: 'c1' }])) });
    sendMessage('Hello');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The server sent an event in an unexpected format.',
    );
  });

  it('lists pending approvals and opens one for a decision', async () => {
    const queued = approvalFixture({ approvalId: 'appr-1', functionRef: 'todos.update' });
    const backend = openAssistant({
      [APPROVALS]: () => jsonResponse({ data: [queued] }),
      [DECISION]: () => sseResponse(sse(['text_delta', { type: 'text_delta', text: 'Done.' }], completed())),
    });

    const queue = (await screen.findByRole('heading', { level: 2, name: 'Pending approvals' })).closest('section')!;
    const review = await within(queue).findByRole('button', { name: 'Review todos.update request' });
    act(() => review.click());
    const card = screen.getByRole('heading', { level: 2, name: 'Approval needed' }).closest('section')!;
    act(() => within(card).getByRole('button', { name: 'Approve' }).click());

    expect(await screen.findByText('Done.')).toBeTruthy();
    expect(backend.to(DECISION)[0]!.body).toEqual({ approvalToken: 'token-abc', decision: 'approve' });
    // The queue is read again once the decision's stream ends, after the reply is shown.
    await waitFor(() => expect(backend.to(APPROVALS).length).toBeGreaterThanOrEqual(2));
  });

  it('stops reading the stream when the page is left', async () => {
    const stream = openSseStream();
    openAssistant({ [TURNS]: () => stream.response });
    sendMessage('Hello');
    await act(async () => stream.write(sse(execution)));

    act(() => screen.getByRole('link', { name: 'Remembered consents' }).click());
    await act(async () => {});
    expect(stream.cancelled()).toBe(true);
  });

  it('goes to sign-in when nobody is signed in', async () => {
    openAt(`/organizations/${ORG}/assistant`);
    stubFetch({});
    render(<App />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(currentUrl()).toBe(`/login?next=${encodeURIComponent(`/organizations/${ORG}/assistant`)}`);
  });

  it('opens the only organization from /assistant', async () => {
    signIn();
    openAt('/assistant');
    stubFetch({
      'GET /api/v1/organizations': () =>
        jsonResponse({ data: [{ _id: ORG, name: 'Acme', role: 'ORG_MEMBER', createdAt: '2030-01-01T00:00:00.000Z' }] }),
      [APPROVALS]: () => jsonResponse({ data: [] }),
    });
    render(<App />);
    expect(await screen.findByRole('log', { name: 'Conversation' })).toBeTruthy();
    expect(currentUrl()).toBe(`/organizations/${ORG}/assistant`);
    const main = screen.getByRole('navigation', { name: 'Main' });
    expect(within(main).getByRole('link', { name: 'Assistant' }).getAttribute('aria-current')).toBe('page');
  });
});
