import { describe, expect, it } from 'vitest';
import { supportAgent } from '../../../modules/support-desk/support-desk.module.js';
import { travelDeskAgent } from '../../../modules/travel-desk/travel-desk.module.js';
import {
  TICKET_TRIAGE_AGENT_REF,
  TODO_ASSISTANT_AGENT_REF,
} from '../../../modules/tasks-manager/flows-actors/index.js';
import { createTestBackend, useTestDatabase } from '../../../testing/test-backend.js';
import { createRecordingLogger } from '../../coordination/coordination.contract.js';

const database = useTestDatabase();

/** The warnings a backend logged while it started with `env`. */
async function startWarnings(env: Record<string, string>) {
  const logger = createRecordingLogger();
  const t = await createTestBackend(database(), { logger, env });
  await t.close();
  return logger.lines.filter((line) => line.level === 'warn' && line.message.startsWith('agent "'));
}

describe('start-up warnings for agents whose provider cannot run', () => {
  it('names each agent without a credential, its provider and the variable to set, one line each', async () => {
    const warnings = await startWarnings({});
    expect(warnings.map((w) => w.message).sort()).toEqual(
      [
        `agent "${TICKET_TRIAGE_AGENT_REF}" cannot run: provider "anthropic" has no credential; set ANTHROPIC_API_KEY`,
        `agent "${TODO_ASSISTANT_AGENT_REF}" cannot run: provider "anthropic" has no credential; set ANTHROPIC_API_KEY`,
        `agent "${supportAgent.ref}" cannot run: provider "anthropic" has no credential; set ANTHROPIC_API_KEY`,
        `agent "${travelDeskAgent.ref}" cannot run: provider "anthropic" has no credential; set ANTHROPIC_API_KEY`,
      ].sort(),
    );
    expect(warnings.map((w) => w.fields)).toContainEqual({
      agent: TODO_ASSISTANT_AGENT_REF,
      provider: 'anthropic',
      variable: 'ANTHROPIC_API_KEY',
    });
  });

  it('warns about nothing once the credential is set', async () => {
    expect(await startWarnings({ ANTHROPIC_API_KEY: 'test-key' })).toEqual([]);
  });

  it('names the fix of another unusable provider setting (a base URL that is not http)', async () => {
    const warnings = await startWarnings({
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: 'ftp://proxy.example.test',
    });
    expect(warnings).toHaveLength(4);
    expect(warnings[0]!.message).toMatch(
      /^agent ".+" cannot run: Provider "anthropic": ANTHROPIC_BASE_URL is not an http\(s\) URL/,
    );
  });
});
