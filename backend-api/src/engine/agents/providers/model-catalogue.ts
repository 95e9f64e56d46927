import {
  ImageProvider_Model,
  ImageProvider_OperationKey,
  LLM_Model,
  LLM_Model_Applicability,
  LLMProvider_OperationKey,
  type LLMProvider_ReasoningEffort,
} from '@wildo/shared-lib';

/** The embeddings operation (no shared enum names it: embeddings are called by the RAG services, not by agents). */
export const EMBED_TEXTS_OPERATION = 'EMBED_TEXTS' as const;
/** {@link EMBED_TEXTS_OPERATION} as a type. */
export type EmbeddingsOperationKey = typeof EMBED_TEXTS_OPERATION;

/** Every operation a catalogued model may serve. */
export type ProviderOperationKey = LLMProvider_OperationKey | ImageProvider_OperationKey | EmbeddingsOperationKey;

/** Embeddings models the framework knows. */
export enum EmbeddingsProvider_Model {
  OPEN_AI_TEXT_EMBEDDING_3_SMALL = 'text-embedding-3-small',
  OPEN_AI_TEXT_EMBEDDING_3_LARGE = 'text-embedding-3-large',
}

/** A model id as agents and services name it (the framework's enums, not the vendor's strings). */
export type CatalogueModelId = LLM_Model | ImageProvider_Model | EmbeddingsProvider_Model;

/** What one model of one provider serves. */
export interface CatalogueModel {
  readonly model: CatalogueModelId;
  readonly providerRef: string;
  /** The id sent to the vendor's API. */
  readonly vendorModelId: string;
  readonly operations: readonly ProviderOperationKey[];
  /** The applicability classes this model can serve when pinned (the class → model choice is the provider's `classModels`). */
  readonly applicability: readonly LLM_Model_Applicability[];
  /** Whether `reasoningEffort` may be set. */
  readonly supportsReasoningEffort: boolean;
  /** Whether `temperature` may be set (reasoning-only models accept only their default). */
  readonly supportsTemperature: boolean;
  /** Vector length, for embeddings models. */
  readonly embeddingDims?: number;
}

/** The models of one provider and how it resolves applicability classes. */
export interface ProviderModelCatalogue {
  readonly providerRef: string;
  readonly models: readonly CatalogueModel[];
  /** Language-model classes: the one model each class resolves to (a class absent here is not served). */
  readonly classModels: Readonly<Partial<Record<LLM_Model_Applicability, CatalogueModelId>>>;
  /** The model used when an image or embeddings call pins none. */
  readonly defaultModels: Readonly<
    Partial<Record<ImageProvider_OperationKey | EmbeddingsOperationKey, CatalogueModelId>>
  >;
}

/** The whole catalogue, by provider ref. */
export type ModelCatalogue = Readonly<Record<string, ProviderModelCatalogue>>;

/**
 * The language models each built-in provider serves, as a type agent declarations check a model against
 * (`defineChatAgent`); a test keeps it equal to the catalogue below.
 */
export const LANGUAGE_MODELS_BY_PROVIDER = {
  anthropic: [LLM_Model.CLAUDE_OPUS_5, LLM_Model.CLAUDE_SONNET_5, LLM_Model.CLAUDE_HAIKU_5],
  openai: [LLM_Model.GPT_5, LLM_Model.GPT_5_MINI],
} as const satisfies Readonly<Record<string, readonly LLM_Model[]>>;

const LLM_OPERATIONS = [
  LLMProvider_OperationKey.CHAT_COMPLETION,
  LLMProvider_OperationKey.GENERATE_STRUCTURED,
] as const;
const ALL_CLASSES = Object.values(LLM_Model_Applicability);

function llm(
  providerRef: string,
  model: LLM_Model,
  applicability: readonly LLM_Model_Applicability[],
  options: { reasoning: boolean; temperature: boolean },
): CatalogueModel {
  return {
    model,
    providerRef,
    vendorModelId: model,
    operations: LLM_OPERATIONS,
    applicability,
    supportsReasoningEffort: options.reasoning,
    supportsTemperature: options.temperature,
  };
}

/**
 * What each built-in provider serves. Vendor ids equal the framework's ids today; they are kept separate so a
 * vendor rename (or a dated snapshot) changes one line here, not every agent.
 */
export const MODEL_CATALOGUE: ModelCatalogue = {
  anthropic: {
    providerRef: 'anthropic',
    models: [
      // The Messages API (SDK 1.15.0) has no `temperature` parameter any more.
      llm('anthropic', LLM_Model.CLAUDE_OPUS_5, ALL_CLASSES, { reasoning: true, temperature: false }),
      llm('anthropic', LLM_Model.CLAUDE_SONNET_5, ALL_CLASSES, { reasoning: true, temperature: false }),
      llm(
        'anthropic',
        LLM_Model.CLAUDE_HAIKU_5,
        [LLM_Model_Applicability.FAST_CLASSIFICATION, LLM_Model_Applicability.CONVERSATION],
        {
          reasoning: false,
          temperature: false,
        },
      ),
    ],
    classModels: {
      [LLM_Model_Applicability.STRUCTURED_AUTHORING]: LLM_Model.CLAUDE_SONNET_5,
      [LLM_Model_Applicability.CONVERSATION]: LLM_Model.CLAUDE_SONNET_5,
      [LLM_Model_Applicability.FAST_CLASSIFICATION]: LLM_Model.CLAUDE_HAIKU_5,
    },
    defaultModels: {},
  },
  openai: {
    providerRef: 'openai',
    models: [
      // GPT-5 models are reasoning models: they accept only their default temperature.
      llm('openai', LLM_Model.GPT_5, ALL_CLASSES, { reasoning: true, temperature: false }),
      llm(
        'openai',
        LLM_Model.GPT_5_MINI,
        [LLM_Model_Applicability.FAST_CLASSIFICATION, LLM_Model_Applicability.CONVERSATION],
        {
          reasoning: true,
          temperature: false,
        },
      ),
      {
        model: ImageProvider_Model.OPEN_AI_GPT_IMAGE_1_5,
        providerRef: 'openai',
        vendorModelId: 'gpt-image-1.5',
        operations: [ImageProvider_OperationKey.GENERATE_IMAGE],
        applicability: [],
        supportsReasoningEffort: false,
        supportsTemperature: false,
      },
      {
        model: EmbeddingsProvider_Model.OPEN_AI_TEXT_EMBEDDING_3_SMALL,
        providerRef: 'openai',
        vendorModelId: 'text-embedding-3-small',
        operations: [EMBED_TEXTS_OPERATION],
        applicability: [],
        supportsReasoningEffort: false,
        supportsTemperature: false,
        embeddingDims: 1536,
      },
      {
        model: EmbeddingsProvider_Model.OPEN_AI_TEXT_EMBEDDING_3_LARGE,
        providerRef: 'openai',
        vendorModelId: 'text-embedding-3-large',
        operations: [EMBED_TEXTS_OPERATION],
        applicability: [],
        supportsReasoningEffort: false,
        supportsTemperature: false,
        embeddingDims: 3072,
      },
    ],
    classModels: {
      [LLM_Model_Applicability.STRUCTURED_AUTHORING]: LLM_Model.GPT_5,
      [LLM_Model_Applicability.CONVERSATION]: LLM_Model.GPT_5,
      [LLM_Model_Applicability.FAST_CLASSIFICATION]: LLM_Model.GPT_5_MINI,
    },
    defaultModels: {
      [ImageProvider_OperationKey.GENERATE_IMAGE]: ImageProvider_Model.OPEN_AI_GPT_IMAGE_1_5,
      [EMBED_TEXTS_OPERATION]: EmbeddingsProvider_Model.OPEN_AI_TEXT_EMBEDDING_3_SMALL,
    },
  },
};

/** What a caller (agent registration, the embeddings binding) asks the catalogue for. */
export interface ModelResolutionRequest {
  /** A pinned model (exactly one of `model` / `modelApplicability` for language-model operations). */
  model?: CatalogueModelId | string;
  modelApplicability?: LLM_Model_Applicability;
  operationKey: ProviderOperationKey;
  reasoningEffort?: LLMProvider_ReasoningEffort | 'low' | 'medium' | 'high';
  temperature?: number;
}

/** A concrete model the provider will be called with. */
export interface ResolvedModel {
  providerRef: string;
  model: CatalogueModelId;
  /** Pass this as `model` to the adapter. */
  vendorModelId: string;
  operationKey: ProviderOperationKey;
  /** `pinned`: named by the caller; `applicability`: resolved from a class; `default`: the provider's image/embeddings default. */
  source: 'pinned' | 'applicability' | 'default';
  applicability?: LLM_Model_Applicability;
  supportsReasoningEffort: boolean;
  reasoningEffort?: 'low' | 'medium' | 'high';
  embeddingDims?: number;
}

/** Why a model cannot be resolved. */
export type ModelRefusalReason =
  | 'provider_unknown'
  | 'invalid_selection'
  | 'model_not_served'
  | 'applicability_not_served'
  | 'operation_not_supported'
  | 'reasoning_not_supported'
  | 'temperature_not_supported';

/** The answer of {@link resolveModel}: a model, or the reason and a message that names the fix. */
export type ModelResolution =
  | { ok: true; resolved: ResolvedModel }
  | { ok: false; reason: ModelRefusalReason; message: string };

/** {@link resolveModel}'s refusal as an error (for {@link resolveModelOrThrow}). */
export class ModelResolutionError extends Error {
  override readonly name = 'ModelResolutionError';
  constructor(
    readonly providerRef: string,
    readonly reason: ModelRefusalReason,
    message: string,
  ) {
    super(message);
  }
}

const isLanguageOperation = (operationKey: ProviderOperationKey): operationKey is LLMProvider_OperationKey =>
  operationKey === LLMProvider_OperationKey.CHAT_COMPLETION ||
  operationKey === LLMProvider_OperationKey.GENERATE_STRUCTURED;

const quoteList = (values: readonly string[]): string => values.map((value) => `"${value}"`).join(', ');

/** Providers of `catalogue` with at least one model serving `operationKey`, sorted. */
export function providersServing(
  operationKey: ProviderOperationKey,
  catalogue: ModelCatalogue = MODEL_CATALOGUE,
): string[] {
  return Object.values(catalogue)
    .filter((entry) => entry.models.some((model) => model.operations.includes(operationKey)))
    .map((entry) => entry.providerRef)
    .sort();
}

/** The models of a provider serving an operation, in catalogue order. */
export function modelsServing(
  providerRef: string,
  operationKey: ProviderOperationKey,
  catalogue: ModelCatalogue = MODEL_CATALOGUE,
): CatalogueModel[] {
  const entry = Object.hasOwn(catalogue, providerRef) ? catalogue[providerRef] : undefined;
  return entry ? entry.models.filter((model) => model.operations.includes(operationKey)) : [];
}

/** A catalogued model by provider and the vendor's id (adapters use it to learn an embeddings model's dims). */
export function findModelByVendorId(
  providerRef: string,
  vendorModelId: string,
  catalogue: ModelCatalogue = MODEL_CATALOGUE,
): CatalogueModel | undefined {
  const entry = Object.hasOwn(catalogue, providerRef) ? catalogue[providerRef] : undefined;
  return entry?.models.find((model) => model.vendorModelId === vendorModelId);
}

/**
 * Resolves what a provider will be called with for an operation: a pinned model is checked as is, an
 * applicability class resolves to the provider's one model for that class. Nothing is substituted: a model,
 * class, operation or setting the provider cannot serve is refused with a reason and a message naming the fix.
 *
 * @example
 * const resolution = resolveModel('anthropic', {
 *   modelApplicability: LLM_Model_Applicability.STRUCTURED_AUTHORING,
 *   operationKey: LLMProvider_OperationKey.GENERATE_STRUCTURED,
 *   reasoningEffort: LLMProvider_ReasoningEffort.LOW,
 * });
 * if (!resolution.ok) throw new Error(`Agent "${agent.ref}": ${resolution.message}`);
 * resolution.resolved.vendorModelId; // 'claude-sonnet-5'
 */
export function resolveModel(
  providerRef: string,
  request: ModelResolutionRequest,
  catalogue: ModelCatalogue = MODEL_CATALOGUE,
): ModelResolution {
  const refuse = (reason: ModelRefusalReason, message: string): ModelResolution => ({ ok: false, reason, message });
  const { operationKey } = request;
  const entry = Object.hasOwn(catalogue, providerRef) ? catalogue[providerRef] : undefined;
  if (!entry) {
    const known = Object.keys(catalogue).sort();
    return refuse(
      'provider_unknown',
      `Provider "${providerRef}" has no model catalogue: the framework ships model adapters for ${quoteList(known)}. ` +
        `Set providerRef to one of them.`,
    );
  }
  const serving = entry.models.filter((model) => model.operations.includes(operationKey));
  if (serving.length === 0) {
    const others = providersServing(operationKey, catalogue);
    return refuse(
      'operation_not_supported',
      `Provider "${providerRef}" does not serve ${operationKey}. ` +
        (others.length > 0
          ? `Providers that do: ${quoteList(others)}; set providerRef (in config and operationDefinition) to one of them.`
          : 'No catalogued provider does.'),
    );
  }
  const servingIds = quoteList(serving.map((model) => model.model));
  const languageOperation = isLanguageOperation(operationKey);

  if (request.model !== undefined && request.modelApplicability !== undefined) {
    return refuse(
      'invalid_selection',
      `Both model "${request.model}" and modelApplicability ${request.modelApplicability} are set; set exactly one ` +
        `(model pins a deployment, modelApplicability lets "${providerRef}" choose).`,
    );
  }

  let chosen: CatalogueModel;
  let source: ResolvedModel['source'];
  if (request.model !== undefined) {
    const found = entry.models.find((model) => model.model === request.model);
    if (!found) {
      const owner = Object.values(catalogue).find((other) =>
        other.models.some((model) => model.model === request.model),
      );
      return refuse(
        'model_not_served',
        `Provider "${providerRef}" does not serve model "${request.model}"` +
          (owner
            ? ` (it is a "${owner.providerRef}" model; to use it, set providerRef to "${owner.providerRef}")`
            : ' (not in the model catalogue)') +
          `. Models "${providerRef}" serves for ${operationKey}: ${servingIds}.`,
      );
    }
    if (!found.operations.includes(operationKey)) {
      return refuse(
        'operation_not_supported',
        `Model "${found.model}" of "${providerRef}" does not support ${operationKey} (it serves ${found.operations.join(', ')}). ` +
          `Pin one of ${servingIds}, or change operationKey.`,
      );
    }
    chosen = found;
    source = 'pinned';
  } else if (request.modelApplicability !== undefined) {
    const applicability = request.modelApplicability;
    const classModel = languageOperation ? entry.classModels[applicability] : undefined;
    const found = classModel === undefined ? undefined : entry.models.find((model) => model.model === classModel);
    if (!found || !found.operations.includes(operationKey)) {
      const servedClasses = languageOperation ? Object.keys(entry.classModels) : [];
      return refuse(
        'applicability_not_served',
        `Provider "${providerRef}" cannot serve applicability class ${applicability} for ${operationKey}; no other class is substituted. ` +
          (servedClasses.length > 0
            ? `Choose a class it serves (${servedClasses.join(', ')}) or pin a model (${servingIds}).`
            : `${operationKey} is not resolved by class: pin a model (${servingIds}) and remove modelApplicability.`),
      );
    }
    chosen = found;
    source = 'applicability';
  } else {
    const defaultId = languageOperation
      ? undefined
      : entry.defaultModels[operationKey as ImageProvider_OperationKey | EmbeddingsOperationKey];
    const found = defaultId === undefined ? undefined : entry.models.find((model) => model.model === defaultId);
    if (!found) {
      return refuse(
        'invalid_selection',
        `Neither model nor modelApplicability is set for ${operationKey} on "${providerRef}"; set exactly one ` +
          `(classes: ${Object.keys(entry.classModels).join(', ')}; models: ${servingIds}).`,
      );
    }
    chosen = found;
    source = 'default';
  }

  const chosenLabel =
    source === 'applicability'
      ? `Model "${chosen.model}" (what ${request.modelApplicability} resolves to on "${providerRef}")`
      : `Model "${chosen.model}"`;
  if (request.reasoningEffort !== undefined && !chosen.supportsReasoningEffort) {
    const reasoningModels = serving.filter((model) => model.supportsReasoningEffort).map((model) => model.model);
    return refuse(
      'reasoning_not_supported',
      `${chosenLabel} does not support reasoningEffort. Remove reasoningEffort` +
        (reasoningModels.length > 0
          ? `, or pin a model of "${providerRef}" that supports it: ${quoteList(reasoningModels)}.`
          : '.'),
    );
  }
  if (request.temperature !== undefined && !chosen.supportsTemperature) {
    const temperatureModels = serving.filter((model) => model.supportsTemperature).map((model) => model.model);
    return refuse(
      'temperature_not_supported',
      `${chosenLabel} accepts only its default temperature. Remove temperature` +
        (temperatureModels.length > 0
          ? `, or pin a model of "${providerRef}" that accepts it: ${quoteList(temperatureModels)}.`
          : '.'),
    );
  }

  const resolved: ResolvedModel = {
    providerRef,
    model: chosen.model,
    vendorModelId: chosen.vendorModelId,
    operationKey,
    source,
    supportsReasoningEffort: chosen.supportsReasoningEffort,
  };
  if (source === 'applicability' && request.modelApplicability !== undefined)
    resolved.applicability = request.modelApplicability;
  if (request.reasoningEffort !== undefined)
    resolved.reasoningEffort = request.reasoningEffort as ResolvedModel['reasoningEffort'];
  if (chosen.embeddingDims !== undefined) resolved.embeddingDims = chosen.embeddingDims;
  return { ok: true, resolved };
}

/** {@link resolveModel}, throwing a {@link ModelResolutionError} with the same reason and message on refusal. */
export function resolveModelOrThrow(
  providerRef: string,
  request: ModelResolutionRequest,
  catalogue: ModelCatalogue = MODEL_CATALOGUE,
): ResolvedModel {
  const resolution = resolveModel(providerRef, request, catalogue);
  if (!resolution.ok) throw new ModelResolutionError(providerRef, resolution.reason, resolution.message);
  return resolution.resolved;
}
