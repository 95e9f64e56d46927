import {
  ImageProvider_Model,
  ImageProvider_OperationKey,
  LLM_Model,
  LLM_Model_Applicability,
  LLMProvider_OperationKey,
  LLMProvider_ReasoningEffort,
} from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import type { LLMProviderAdapter } from './llm-provider.types.js';
import {
  EMBED_TEXTS_OPERATION,
  EmbeddingsProvider_Model,
  findModelByVendorId,
  LANGUAGE_MODELS_BY_PROVIDER,
  MODEL_CATALOGUE,
  ModelResolutionError,
  modelsServing,
  providersServing,
  resolveModel,
  resolveModelOrThrow,
  type ProviderOperationKey,
} from './model-catalogue.js';
import { BUILT_IN_ADAPTER_FACTORIES } from './provider-registry.service.js';

const CHAT = LLMProvider_OperationKey.CHAT_COMPLETION;
const STRUCTURED = LLMProvider_OperationKey.GENERATE_STRUCTURED;

describe('resolveModel', () => {
  describe('a pinned model', () => {
    it('is served as pinned when the provider serves it for the operation', () => {
      const resolution = resolveModel('anthropic', { model: LLM_Model.CLAUDE_OPUS_5, operationKey: STRUCTURED });

      expect(resolution).toEqual({
        ok: true,
        resolved: {
          providerRef: 'anthropic',
          model: LLM_Model.CLAUDE_OPUS_5,
          vendorModelId: 'claude-opus-5',
          operationKey: STRUCTURED,
          source: 'pinned',
          supportsReasoningEffort: true,
        },
      });
    });

    it('of another provider is refused, naming the provider that serves it, with no substitute', () => {
      const resolution = resolveModel('anthropic', { model: LLM_Model.GPT_5, operationKey: CHAT });

      expect(resolution).toMatchObject({ ok: false, reason: 'model_not_served' });
      expect(resolution).not.toHaveProperty('resolved');
      expect(resolution.ok ? '' : resolution.message).toContain('"openai"');
    });

    it('that no provider knows is refused as not in the catalogue', () => {
      const resolution = resolveModel('openai', { model: 'gpt-9-ultra', operationKey: CHAT });

      expect(resolution).toMatchObject({ ok: false, reason: 'model_not_served' });
      expect(resolution.ok ? '' : resolution.message).toContain('not in the model catalogue');
    });

    it('that does not serve the operation is refused', () => {
      const resolution = resolveModel('openai', {
        model: EmbeddingsProvider_Model.OPEN_AI_TEXT_EMBEDDING_3_SMALL,
        operationKey: CHAT,
      });

      expect(resolution).toMatchObject({ ok: false, reason: 'operation_not_supported' });
    });
  });

  describe('an applicability class', () => {
    it.each([
      ['anthropic', LLM_Model_Applicability.STRUCTURED_AUTHORING, LLM_Model.CLAUDE_SONNET_5],
      ['anthropic', LLM_Model_Applicability.CONVERSATION, LLM_Model.CLAUDE_SONNET_5],
      ['anthropic', LLM_Model_Applicability.FAST_CLASSIFICATION, LLM_Model.CLAUDE_HAIKU_5],
      ['openai', LLM_Model_Applicability.STRUCTURED_AUTHORING, LLM_Model.GPT_5],
      ['openai', LLM_Model_Applicability.FAST_CLASSIFICATION, LLM_Model.GPT_5_MINI],
    ])('%s resolves %s to the concrete model %s', (providerRef, modelApplicability, model) => {
      const resolution = resolveModel(providerRef, { modelApplicability, operationKey: CHAT });

      expect(resolution).toMatchObject({
        ok: true,
        resolved: { model, vendorModelId: model, source: 'applicability', applicability: modelApplicability },
      });
    });

    it('a provider has no model for is refused, with no other class substituted', () => {
      const catalogue = {
        ...MODEL_CATALOGUE,
        anthropic: {
          ...MODEL_CATALOGUE.anthropic!,
          classModels: { [LLM_Model_Applicability.CONVERSATION]: LLM_Model.CLAUDE_SONNET_5 },
        },
      };

      const resolution = resolveModel(
        'anthropic',
        { modelApplicability: LLM_Model_Applicability.FAST_CLASSIFICATION, operationKey: CHAT },
        catalogue,
      );

      expect(resolution).toMatchObject({ ok: false, reason: 'applicability_not_served' });
    });

    it('is refused for an image operation (image models are pinned or defaulted)', () => {
      const resolution = resolveModel('openai', {
        modelApplicability: LLM_Model_Applicability.CONVERSATION,
        operationKey: ImageProvider_OperationKey.GENERATE_IMAGE,
      });

      expect(resolution).toMatchObject({ ok: false, reason: 'applicability_not_served' });
    });
  });

  describe('reasoning effort', () => {
    it('is kept for a model that supports it', () => {
      const resolution = resolveModel('openai', {
        model: LLM_Model.GPT_5,
        operationKey: STRUCTURED,
        reasoningEffort: LLMProvider_ReasoningEffort.HIGH,
      });

      expect(resolution).toMatchObject({
        ok: true,
        resolved: { reasoningEffort: 'high', supportsReasoningEffort: true },
      });
    });

    it('is refused on a pinned model that does not support it', () => {
      const resolution = resolveModel('anthropic', {
        model: LLM_Model.CLAUDE_HAIKU_5,
        operationKey: CHAT,
        reasoningEffort: 'low',
      });

      expect(resolution).toMatchObject({ ok: false, reason: 'reasoning_not_supported' });
      expect(resolution.ok ? '' : resolution.message).toContain(LLM_Model.CLAUDE_SONNET_5);
    });

    it('is refused when the class resolves to a model without it, rather than picking another model', () => {
      const resolution = resolveModel('anthropic', {
        modelApplicability: LLM_Model_Applicability.FAST_CLASSIFICATION,
        operationKey: CHAT,
        reasoningEffort: LLMProvider_ReasoningEffort.LOW,
      });

      expect(resolution).toMatchObject({ ok: false, reason: 'reasoning_not_supported' });
    });
  });

  it('refuses a temperature on a model that accepts only its default', () => {
    const resolution = resolveModel('openai', { model: LLM_Model.GPT_5, operationKey: CHAT, temperature: 0.2 });

    expect(resolution).toMatchObject({ ok: false, reason: 'temperature_not_supported' });
  });

  it('refuses a provider without a catalogue', () => {
    expect(resolveModel('mistral', { model: LLM_Model.GPT_5, operationKey: CHAT })).toMatchObject({
      ok: false,
      reason: 'provider_unknown',
    });
  });

  it('refuses an operation the provider does not serve, naming the providers that do', () => {
    const resolution = resolveModel('anthropic', { operationKey: ImageProvider_OperationKey.GENERATE_IMAGE });

    expect(resolution).toMatchObject({ ok: false, reason: 'operation_not_supported' });
    expect(resolution.ok ? '' : resolution.message).toContain('"openai"');
  });

  it('refuses both a model and a class', () => {
    const resolution = resolveModel('openai', {
      model: LLM_Model.GPT_5,
      modelApplicability: LLM_Model_Applicability.CONVERSATION,
      operationKey: CHAT,
    });

    expect(resolution).toMatchObject({ ok: false, reason: 'invalid_selection' });
  });

  it('refuses a language operation with neither a model nor a class', () => {
    expect(resolveModel('openai', { operationKey: CHAT })).toMatchObject({ ok: false, reason: 'invalid_selection' });
  });

  it("uses the provider's default image model when none is pinned", () => {
    const resolution = resolveModel('openai', { operationKey: ImageProvider_OperationKey.GENERATE_IMAGE });

    expect(resolution).toMatchObject({
      ok: true,
      resolved: { model: ImageProvider_Model.OPEN_AI_GPT_IMAGE_1_5, vendorModelId: 'gpt-image-1.5', source: 'default' },
    });
  });

  it("uses the provider's default embeddings model, with its vector length, when none is pinned", () => {
    const resolution = resolveModel('openai', { operationKey: EMBED_TEXTS_OPERATION });

    expect(resolution).toMatchObject({
      ok: true,
      resolved: {
        model: EmbeddingsProvider_Model.OPEN_AI_TEXT_EMBEDDING_3_SMALL,
        source: 'default',
        embeddingDims: 1536,
      },
    });
  });
});

describe('resolveModelOrThrow', () => {
  it('returns the resolved model', () => {
    expect(resolveModelOrThrow('openai', { model: LLM_Model.GPT_5_MINI, operationKey: CHAT }).vendorModelId).toBe(
      'gpt-5-mini',
    );
  });

  it('throws a ModelResolutionError with the refusal reason', () => {
    expect(() => resolveModelOrThrow('anthropic', { model: LLM_Model.GPT_5, operationKey: CHAT })).toThrow(
      expect.objectContaining({ name: 'ModelResolutionError', reason: 'model_not_served', providerRef: 'anthropic' }),
    );
    expect(() => resolveModelOrThrow('anthropic', { model: LLM_Model.GPT_5, operationKey: CHAT })).toThrow(
      ModelResolutionError,
    );
  });
});

describe('catalogue look-ups', () => {
  it('lists the providers serving an operation', () => {
    expect(providersServing(CHAT)).toEqual(['anthropic', 'openai']);
    expect(providersServing(EMBED_TEXTS_OPERATION)).toEqual(['openai']);
  });

  it('lists the models of a provider serving an operation', () => {
    expect(modelsServing('openai', EMBED_TEXTS_OPERATION).map((model) => model.model)).toEqual([
      EmbeddingsProvider_Model.OPEN_AI_TEXT_EMBEDDING_3_SMALL,
      EmbeddingsProvider_Model.OPEN_AI_TEXT_EMBEDDING_3_LARGE,
    ]);
  });

  it("finds a model by the vendor's id", () => {
    expect(findModelByVendorId('openai', 'text-embedding-3-large')?.embeddingDims).toBe(3072);
    expect(findModelByVendorId('anthropic', 'text-embedding-3-large')).toBeUndefined();
  });
});

describe('MODEL_CATALOGUE', () => {
  const ADAPTER_METHOD: Record<string, keyof LLMProviderAdapter> = {
    [CHAT]: 'streamChat',
    [STRUCTURED]: 'generateStructured',
    [ImageProvider_OperationKey.GENERATE_IMAGE]: 'generateImage',
    [EMBED_TEXTS_OPERATION]: 'embed',
  };

  it.each(Object.keys(MODEL_CATALOGUE))(
    'resolves every class of %s to one of its models serving both language operations',
    (providerRef) => {
      const entry = MODEL_CATALOGUE[providerRef]!;
      for (const [applicability, modelId] of Object.entries(entry.classModels)) {
        const model = entry.models.find((candidate) => candidate.model === modelId);
        expect(model, `${providerRef} ${applicability}`).toBeDefined();
        expect(model?.operations).toEqual(expect.arrayContaining([CHAT, STRUCTURED]));
        expect(model?.applicability).toContain(applicability);
      }
    },
  );

  it.each(Object.keys(MODEL_CATALOGUE))(
    'lists for %s only operations its shipped adapter implements',
    (providerRef) => {
      const adapter = BUILT_IN_ADAPTER_FACTORIES[providerRef]!({
        ref: providerRef,
        apiKey: 'unused',
        baseURL: 'http://127.0.0.1:9',
      });
      const operations = new Set<ProviderOperationKey>(
        MODEL_CATALOGUE[providerRef]!.models.flatMap((model) => model.operations),
      );

      for (const operation of operations)
        expect(adapter[ADAPTER_METHOD[operation]!], `${providerRef} ${operation}`).toBeTypeOf('function');
    },
  );

  it('types exactly the chat models of each provider for agent declarations', () => {
    const chatModels = Object.fromEntries(
      Object.entries(MODEL_CATALOGUE)
        .map(
          ([providerRef, entry]) =>
            [
              providerRef,
              entry.models.filter((model) => model.operations.includes(CHAT)).map((model) => model.model),
            ] as const,
        )
        .filter(([, models]) => models.length > 0),
    );
    expect(chatModels).toEqual(LANGUAGE_MODELS_BY_PROVIDER);
  });
});
