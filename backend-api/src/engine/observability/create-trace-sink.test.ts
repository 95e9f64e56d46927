import { validateSaaSConfig } from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { validConfigFixture, type ConfigFixture } from '../config/config.fixtures.js';
import { buildRuntimeConfiguration } from '../config/runtime-configuration.build.js';
import type { RuntimeConfiguration } from '../config/runtime-configuration.schema.js';
import { createTraceSink, resolveLlmObservabilityPolicy } from './create-trace-sink.js';
import { LoggerTraceSink } from './logger-trace-sink.js';
import { FakePostHogClient, generationTrace, recordingLogger } from './observability.fixtures.js';
import { PostHogTraceSink, type PostHogClientOptions } from './posthog-trace-sink.js';

function runtime(edit: (fixture: ConfigFixture) => void = () => {}): RuntimeConfiguration {
  const fixture = validConfigFixture();
  edit(fixture);
  const result = validateSaaSConfig(fixture);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return buildRuntimeConfiguration(result.config);
}

function clientFactory() {
  const created: { options: PostHogClientOptions; client: FakePostHogClient }[] = [];
  return {
    created,
    create: (options: PostHogClientOptions) => {
      const client = new FakePostHogClient();
      created.push({ options, client });
      return client;
    },
  };
}

describe('createTraceSink', () => {
  it('uses the logger only without a generated configuration', async () => {
    const factory = clientFactory();
    const sink = await createTraceSink({}, { POSTHOG_PROJECT_API_KEY: 'phc_x' }, recordingLogger(), {
      createPostHogClient: factory.create,
    });
    expect(sink.children.map((c) => c.name)).toEqual(['logger']);
    expect(sink.children[0]).toBeInstanceOf(LoggerTraceSink);
    expect(factory.created).toEqual([]);
  });

  it('adds PostHog when LLM_OBSERVABILITY is enabled, posthog selected and its key set', async () => {
    const factory = clientFactory();
    const sink = await createTraceSink(
      runtime(),
      { POSTHOG_PROJECT_API_KEY: 'phc_test', POSTHOG_HOST: 'https://eu.i.posthog.com' },
      recordingLogger(),
      {
        createPostHogClient: factory.create,
      },
    );
    expect(sink.children.map((c) => c.name)).toEqual(['logger', 'posthog']);
    expect(factory.created[0]?.options).toMatchObject({ apiKey: 'phc_test', host: 'https://eu.i.posthog.com' });
    const posthog = sink.children[1] as PostHogTraceSink;
    expect([posthog.sampleRate, posthog.captureContent]).toEqual([1, false]);
    await sink.emit(generationTrace());
    expect(factory.created[0]?.client.events.map((e) => e.event)).toEqual(['$ai_generation']);
  });

  it('stays on the logger when the key is missing, naming the variable but no value', async () => {
    const logger = recordingLogger();
    const factory = clientFactory();
    const sink = await createTraceSink(runtime(), { POSTHOG_PROJECT_API_KEY: '' }, logger, {
      createPostHogClient: factory.create,
    });
    expect(sink.children.map((c) => c.name)).toEqual(['logger']);
    expect(logger.lines).toEqual([
      {
        level: 'warn',
        message: 'LLM observability provider unavailable; traces go to the log only',
        fields: {
          scope: 'backend',
          reason: 'missing_credentials',
          missingCredentialEnvVars: ['POSTHOG_PROJECT_API_KEY'],
        },
      },
    ]);
  });

  it('stays on the logger when the capability is disabled or nothing is selected', async () => {
    const factory = clientFactory();
    const env = { POSTHOG_PROJECT_API_KEY: 'phc_test' };
    const disabled = runtime((f) => {
      f.engineCapabilities.LLM_OBSERVABILITY = { enabled: false };
      delete f.providers.scopes.backend!.selection.LLM_OBSERVABILITY;
      delete f.providers.scopes.backend!.providers.posthog;
    });
    expect(
      (await createTraceSink(disabled, env, recordingLogger(), { createPostHogClient: factory.create })).children.map(
        (c) => c.name,
      ),
    ).toEqual(['logger']);
    const otherScope = await createTraceSink(runtime(), env, recordingLogger(), {
      scope: 'companion',
      createPostHogClient: factory.create,
    });
    expect(otherScope.children.map((c) => c.name)).toEqual(['logger']);
    expect(factory.created).toEqual([]);
  });

  it('refuses a POSTHOG_HOST that is not an http(s) URL', async () => {
    const logger = recordingLogger();
    const factory = clientFactory();
    const sink = await createTraceSink(
      runtime(),
      { POSTHOG_PROJECT_API_KEY: 'phc_test', POSTHOG_HOST: 'file:///etc/passwd' },
      logger,
      { createPostHogClient: factory.create },
    );
    expect(sink.children.map((c) => c.name)).toEqual(['logger']);
    expect(logger.lines[0]?.message).toContain('POSTHOG_HOST');
  });

  it('takes sampling and content capture from the configuration, overridden by WILDO_LLM_OBS_*', async () => {
    const factory = clientFactory();
    const configured = runtime((f) => {
      f.observability.llmObservability = { captureContent: true, sampleRate: 0.5 };
    });
    const fromConfig = await createTraceSink(configured, { POSTHOG_PROJECT_API_KEY: 'k' }, recordingLogger(), {
      createPostHogClient: factory.create,
    });
    expect(pick(fromConfig.children[1] as PostHogTraceSink)).toEqual({ sampleRate: 0.5, captureContent: true });
    const overridden = await createTraceSink(
      configured,
      { POSTHOG_PROJECT_API_KEY: 'k', WILDO_LLM_OBS_SAMPLE_RATE: '0', WILDO_LLM_OBS_CAPTURE_CONTENT: 'false' },
      recordingLogger(),
      { createPostHogClient: factory.create },
    );
    expect(pick(overridden.children[1] as PostHogTraceSink)).toEqual({ sampleRate: 0, captureContent: false });
    await overridden.emit(generationTrace());
    expect(factory.created[1]?.client.events).toEqual([]);
  });
});

describe('resolveLlmObservabilityPolicy', () => {
  it('defaults to capture off and sample rate 1', () => {
    expect(resolveLlmObservabilityPolicy({}, {}, recordingLogger())).toEqual({ captureContent: false, sampleRate: 1 });
  });

  it('reads the generated environment', () => {
    expect(
      resolveLlmObservabilityPolicy(
        {},
        { WILDO_LLM_OBS_SAMPLE_RATE: '0.25', WILDO_LLM_OBS_CAPTURE_CONTENT: 'true' },
        recordingLogger(),
      ),
    ).toEqual({
      captureContent: true,
      sampleRate: 0.25,
    });
  });

  it('ignores unreadable values with a warning: the configured rate, capture off', () => {
    const logger = recordingLogger();
    const configured = runtime((f) => {
      f.observability.llmObservability = { captureContent: true, sampleRate: 0.5 };
    });
    expect(
      resolveLlmObservabilityPolicy(
        configured,
        { WILDO_LLM_OBS_SAMPLE_RATE: '1.5', WILDO_LLM_OBS_CAPTURE_CONTENT: 'maybe' },
        logger,
      ),
    ).toEqual({
      captureContent: false,
      sampleRate: 0.5,
    });
    expect(logger.lines.map((l) => l.level)).toEqual(['warn', 'warn']);
  });
});

function pick(sink: PostHogTraceSink) {
  return { sampleRate: sink.sampleRate, captureContent: sink.captureContent };
}
