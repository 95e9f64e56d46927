import { EngineCapability, validateSaaSConfig } from '@wildo/shared-lib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicStub, errorReply, OpenAIStub, textReply } from '../../../testing/llm-stubs/index.js';
import { validConfigFixture } from '../../config/config.fixtures.js';
import { buildRuntimeConfiguration } from '../../config/runtime-configuration.build.js';
import type { RuntimeConfiguration } from '../../config/runtime-configuration.schema.js';
import { collect } from './adapter.fixtures.js';
import { ProviderCallError, type ChatStreamRequest } from './llm-provider.types.js';
import { baseUrlEnvVar, ProviderRegistry, type ProviderRegistryOptions } from './provider-registry.service.js';

const ANTHROPIC_KEY = 'sk-ant-registry-test';
const OPENAI_KEY = 'sk-openai-registry-test';
const CHAT: ChatStreamRequest = { model: 'claude-sonnet-5', messages: [{ role: 'user', content: 'Hello' }] };

/**
 * A runtime configuration as `wildo config sync` generates it (the reference application's shape): anthropic
 * for AI_LLM with openai configured as its `whenUnavailable` candidate, openai for AI_EMBEDDINGS, posthog for
 * LLM observability (a provider without a model adapter).
 */
function runtimeConfiguration(): RuntimeConfiguration {
  const fixture = validConfigFixture();
  fixture.engineCapabilities.AI_EMBEDDINGS = { enabled: true };
  const backend = fixture.providers.scopes.backend!;
  backend.providers.openai = {
    engineCapabilities: ['AI_LLM', 'AI_EMBEDDINGS'],
    providerCapabilities: ['LLM_CHAT', 'LLM_EMBEDDINGS'],
    protocols: ['LLM_PROVIDER', 'EMBEDDINGS_PROVIDER'],
  };
  backend.selection.AI_LLM = { primary: 'anthropic', whenUnavailable: ['openai'] };
  backend.selection.AI_EMBEDDINGS = { primary: 'openai', whenUnavailable: [] };
  const result = validateSaaSConfig(fixture);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return buildRuntimeConfiguration(result.config);
}

/** What `run` threw (fails the test when it returns). */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('ProviderRegistry', () => {
  let anthropicStub: AnthropicStub;
  let openaiStub: OpenAIStub;

  beforeEach(async () => {
    [anthropicStub, openaiStub] = await Promise.all([new AnthropicStub().start(), new OpenAIStub().start()]);
  });

  afterEach(async () => {
    await Promise.all([anthropicStub.close(), openaiStub.close()]);
  });

  function registry(
    env: Record<string, string | undefined>,
    options: Partial<ProviderRegistryOptions> = {},
  ): ProviderRegistry {
    return new ProviderRegistry({ runtime: runtimeConfiguration(), env, maxRetries: 0, ...options });
  }

  const fullEnv = (): Record<string, string> => ({
    ANTHROPIC_API_KEY: ANTHROPIC_KEY,
    ANTHROPIC_BASE_URL: anthropicStub.baseURL,
    OPENAI_API_KEY: OPENAI_KEY,
    OPENAI_BASE_URL: openaiStub.baseURL,
  });

  describe('a declared provider with its credential set', () => {
    it('is available, with its credential variable and the base URL override', () => {
      const providers = registry(fullEnv());

      expect(providers.status('anthropic')).toEqual({
        ref: 'anthropic',
        available: true,
        credentialEnvVar: 'ANTHROPIC_API_KEY',
        baseURL: anthropicStub.baseURL,
      });
      expect(providers.isAvailable('anthropic')).toBe(true);
    });

    it('reaches the Anthropic stub through ANTHROPIC_BASE_URL with the credential from env', async () => {
      anthropicStub.enqueue(textReply('Hello from the stub'));

      const events = await collect(registry(fullEnv()).get('anthropic').streamChat!(CHAT));

      expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
      expect(anthropicStub.requests).toHaveLength(1);
      expect(anthropicStub.requests[0]?.headers.authorization).toBe(`Bearer ${ANTHROPIC_KEY}`);
    });

    it('reaches the OpenAI stub through OPENAI_BASE_URL with the credential from env', async () => {
      openaiStub.enqueue({ type: 'embeddings', dims: 3 });

      const result = await registry(fullEnv()).get('openai').embed!({
        model: 'text-embedding-3-small',
        texts: ['a', 'b'],
        purpose: 'CORPUS',
      });

      expect(result.vectors).toHaveLength(2);
      expect(openaiStub.requests).toHaveLength(1);
      expect(openaiStub.requests[0]?.path).toBe('/v1/embeddings');
      expect(openaiStub.requests[0]?.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    });

    it('hands out the same limited adapter on every get, built on first use', () => {
      const providers = registry(fullEnv(), { maxConcurrencyByProvider: { anthropic: 3 } });
      expect(providers.limiterStats('anthropic')).toBeUndefined();

      const adapter = providers.get('anthropic');

      expect(providers.get('anthropic')).toBe(adapter);
      expect(providers.limiterStats('anthropic')).toEqual({ max: 3, inFlight: 0, queued: 0 });
    });

    it('reads the environment once, at construction', () => {
      const env: Record<string, string | undefined> = { ANTHROPIC_API_KEY: ANTHROPIC_KEY };
      const providers = registry(env);

      delete env.ANTHROPIC_API_KEY;

      expect(providers.isAvailable('anthropic')).toBe(true);
    });

    it('refuses a base URL override that is not an http(s) URL', () => {
      const status = registry({ ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: 'ftp://example.test' }).status(
        'anthropic',
      );

      expect(status).toMatchObject({ available: false, reason: 'invalid_base_url' });
      expect(status.available ? '' : status.message).toContain('ANTHROPIC_BASE_URL');
    });
  });

  describe('a declared provider without its credential', () => {
    it('reports missing_credential with a message naming the variable', () => {
      const status = registry({ OPENAI_API_KEY: OPENAI_KEY }).status('anthropic');

      expect(status).toMatchObject({
        ref: 'anthropic',
        available: false,
        reason: 'missing_credential',
        credentialEnvVar: 'ANTHROPIC_API_KEY',
      });
      expect(status.available ? '' : status.message).toContain('ANTHROPIC_API_KEY');
    });

    it('treats a blank credential as missing', () => {
      expect(registry({ ANTHROPIC_API_KEY: '  ' }).status('anthropic')).toMatchObject({
        available: false,
        reason: 'missing_credential',
      });
    });

    it('throws not_configured from get(), naming the variable', () => {
      const error = thrown(() => registry({}).get('anthropic'));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'not_configured', providerRef: 'anthropic' });
      expect((error as Error).message).toContain('ANTHROPIC_API_KEY');
    });
  });

  describe('a provider that is not declared', () => {
    it('reports not_declared', () => {
      expect(registry(fullEnv()).status('mistral')).toMatchObject({
        ref: 'mistral',
        available: false,
        reason: 'not_declared',
      });
    });

    it('throws not_configured from get()', () => {
      const error = thrown(() => registry({ ...fullEnv(), MISTRAL_API_KEY: 'sk-mistral' }).get('mistral'));

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'not_configured', providerRef: 'mistral' });
    });

    it('is not listed', () => {
      expect(
        registry(fullEnv())
          .list()
          .map((status) => status.ref),
      ).toEqual(['anthropic', 'openai', 'posthog']);
    });
  });

  it('reports a declared provider without a model adapter as no_adapter', () => {
    expect(registry({ POSTHOG_PROJECT_API_KEY: 'phc_test' }).status('posthog')).toMatchObject({
      available: false,
      reason: 'no_adapter',
    });
  });

  it('reports a provider whose engine capabilities are all disabled as capability_disabled', () => {
    // Validation refuses such a configuration; a runtime.json edited by hand (or stale) can still say so.
    const runtime = runtimeConfiguration();
    runtime.engineCapabilities.AI_EMBEDDINGS = { enabled: false };
    runtime.engineCapabilities.AI_LLM = { enabled: false };

    const status = new ProviderRegistry({ runtime, env: fullEnv() }).status('openai');

    expect(status).toMatchObject({ available: false, reason: 'capability_disabled' });
  });

  it('never writes a credential value into a status', () => {
    const statuses = JSON.stringify(registry({ ...fullEnv(), ANTHROPIC_BASE_URL: 'not a url' }).list());

    expect(statuses).not.toContain(ANTHROPIC_KEY);
    expect(statuses).not.toContain(OPENAI_KEY);
  });

  describe('never switches vendor', () => {
    it('does not hand out openai when anthropic has no credential, though openai is its whenUnavailable candidate', () => {
      const providers = registry({ OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: openaiStub.baseURL });

      const error = thrown(() => providers.get('anthropic'));

      expect(error).toMatchObject({ kind: 'not_configured', providerRef: 'anthropic' });
      expect(openaiStub.requests).toHaveLength(0);
    });

    it('surfaces a failed anthropic call as an anthropic error without calling openai', async () => {
      anthropicStub.enqueue(errorReply(500, 'internal error'));

      const error = await collect(registry(fullEnv()).get('anthropic').streamChat!(CHAT)).catch(
        (caught: unknown) => caught,
      );

      expect(error).toBeInstanceOf(ProviderCallError);
      expect(error).toMatchObject({ kind: 'unavailable', providerRef: 'anthropic' });
      expect(openaiStub.requests).toHaveLength(0);
    });
  });

  describe('selectForCapability', () => {
    it('selects the primary provider of the capability with its adapter', () => {
      const selection = registry(fullEnv()).selectForCapability(EngineCapability.AI_EMBEDDINGS);

      expect(selection).toMatchObject({ available: true, ref: 'openai', isPrimary: true });
    });

    it('reports missing credentials with the variables to set', () => {
      const selection = registry({}).selectForCapability(EngineCapability.AI_EMBEDDINGS);

      expect(selection).toMatchObject({
        available: false,
        reason: 'missing_credentials',
        missingCredentialEnvVars: ['OPENAI_API_KEY'],
      });
    });
  });
});

describe('baseUrlEnvVar', () => {
  it('names the base URL override of a provider', () => {
    expect([baseUrlEnvVar('anthropic'), baseUrlEnvVar('openai'), baseUrlEnvVar('my-proxy')]).toEqual([
      'ANTHROPIC_BASE_URL',
      'OPENAI_BASE_URL',
      'MY_PROXY_BASE_URL',
    ]);
  });
});
