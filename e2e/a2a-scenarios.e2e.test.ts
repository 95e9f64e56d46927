import { describe, expect, it } from 'vitest';
import { createLogger, createWildoBackend } from '@wildo/backend-api';
import { createPgliteDatabase } from '@wildo/backend-api/persistence';
import { pgliteTemplateDump } from '@wildo/backend-api/testing/pglite-template';
import { referenceApplication } from '@wildo/backend-api/reference-application';
import { freePort } from '@wildo/backend-api/testing/backend-process';
import { AnthropicStub, textReply, toolCallsReply, type StubRequest } from '@wildo/backend-api/testing/llm-stubs';
import { runA2aScenario } from './a2a/a2a-scenario.js';
import { A2A_APPROVAL_HOSTILE_SECTIONS } from './a2a-approval-hostile.e2e.js';
import { A2A_DIALECTS_SECTIONS } from './a2a-dialects.e2e.js';
import { A2A_HOSTILE_SECTIONS } from './a2a-hostile.e2e.js';
import { A2A_PUSH_SECTIONS } from './a2a-push-notifications.e2e.js';
import { A2A_RESUBSCRIBE_SECTIONS } from './a2a-resubscribe.e2e.js';
import { referenceRuntimeOptions } from './reference-runtime.js';

const E2E_TEST_PRIMARY_SECRET = 'e2e-a2a-scenarios-secret-0123456789-abcdefgh';

/**
 * A stand-in model for the todo assistant: asked to rename a todo by id, it reads it, proposes the rename, then
 * answers once the call's result is back; anything else gets a short text answer.
 */
function todoModel(request: StubRequest) {
  const messages = (request.body as { messages: { role: string; content: unknown }[] }).messages;
  const first = JSON.stringify(messages[0]?.content ?? '');
  const rename = /id ([\w-]+) to \\"([^"\\]+)\\"/.exec(first);
  const calls = messages.flatMap((m) =>
    Array.isArray(m.content) ? m.content.filter((c: { type?: string }) => c.type === 'tool_use') : [],
  ) as { name: string }[];
  if (!rename) return textReply('Hello from the stand-in model.');
  const [, id, title] = rename;
  if (calls.length === 0) return toolCallsReply([{ name: 'resource_todos_read', arguments: { id: id ?? '' } }]);
  if (calls.length === 1)
    return toolCallsReply([{ name: 'resource_todos_update', arguments: { id: id ?? '', title: title ?? '' } }]);
  return textReply('Done.');
}

describe('A2A scenarios', () => {
  it('pass against the reference application over real HTTP, with a stand-in model', async () => {
    const database = await createPgliteDatabase({ loadDataDir: await pgliteTemplateDump() });
    const stub = await new AnthropicStub().start();
    stub.setFallback(todoModel);
    const errorLog: string[] = [];
    try {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const runtime = await referenceRuntimeOptions();
      await using backend = await createWildoBackend({
        application: referenceApplication,
        database,
        logger: createLogger({ level: 'error', destination: { write: (line: string) => void errorLog.push(line) } }),
        primarySecret: E2E_TEST_PRIMARY_SECRET,
        publicUrl: url,
        runtime: runtime.runtime,
        env: { ANTHROPIC_API_KEY: 'e2e-key', ANTHROPIC_BASE_URL: stub.baseURL },
        providers: { maxRetries: 0 },
      });
      await backend.listen(port, '127.0.0.1');
      // The five scenarios' sections on one provisioned world (two sign-ups instead of ten).
      const lines: string[] = [];
      const results = await runA2aScenario('A2A scenarios', url, (line) => lines.push(line), [
        ...A2A_DIALECTS_SECTIONS,
        ...A2A_RESUBSCRIBE_SECTIONS,
        ...A2A_PUSH_SECTIONS,
        ...A2A_APPROVAL_HOSTILE_SECTIONS,
        ...A2A_HOSTILE_SECTIONS,
      ]);
      const report = lines.join('\n');
      expect(results.failures, report).toEqual([]);
      expect(results.passed, report).toBeGreaterThan(60);
      // The foreign rename was attempted by the model and approved by B (a decided approval naming the other
      // organization's todo), and stored nothing: the hostile scenario read the title back.
      const { rows } = await database.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM wildo_agent_approvals WHERE arguments->>'title' = 'taken over' AND status = 'approved'`,
      );
      expect(Number(rows[0]?.n)).toBe(1);
      expect(errorLog).toEqual([]);
    } finally {
      await stub.close();
      await database.close();
    }
  });
});
