import { AnthropicStub, textReply, toolCallsReply, type StubRequest } from '../src/testing/llm-stubs/index.js';

/**
 * The bench's model, in its own process so its work never shares the runtime's event loop: it reads a todo,
 * reads it again, then answers. Prints its base URL on stdout. The todo's id is the last word of the person's message.
 */
const stub = await new AnthropicStub().start();
stub.setFallback((request: StubRequest) => {
  // Every bench turn starts a new conversation, so the model's round is the number of its earlier answers.
  const messages = (request.body as { messages: { role: string; content: unknown }[] }).messages;
  const round = messages.filter((m) => m.role === 'assistant').length;
  const todoId = JSON.stringify(messages[0]?.content).match(/todo ([\w-]+)/)?.[1] ?? '';
  if (round === 0)
    return toolCallsReply([{ id: 'read-1', name: 'resource_todos_read', arguments: { id: todoId } }], {
      usage: { inputTokens: 300, outputTokens: 20 },
    });
  if (round === 1)
    return toolCallsReply([{ id: 'read-2', name: 'resource_todos_read', arguments: { id: todoId } }], {
      usage: { inputTokens: 340, outputTokens: 20 },
    });
  return textReply('Your todo is called "Benchmark the runtime".', { usage: { inputTokens: 380, outputTokens: 12 } });
});
process.stdout.write(`${stub.baseURL}\n`);
process.on('SIGTERM', () => void stub.close().then(() => process.exit(0)));
