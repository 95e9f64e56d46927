import { performance } from 'node:perf_hooks';
import { AgentTraceabilityLevel, EngineCapability, type AgentCallUsage } from '@wildo/shared-lib';
import type { TokenBudgetService } from '../../agents/budgets/index.js';
import {
  EMBED_TEXTS_OPERATION,
  findModelByVendorId,
  resolveModel,
  type CapabilitySelection,
  type LLMProviderAdapter,
  type ProviderRegistry,
} from '../../agents/providers/index.js';
import type { Clock } from '../../container/index.js';
import type { Logger } from '../../logging/index.js';
import type { AgentTraceSink } from '../../observability/index.js';
import type { EmbeddingsBindingResolution, EmbedTextsRequest, EmbedTextsResult } from './embeddings.types.js';

/** The agent ref embeddings traces carry (no agent makes them: the RAG services do). */
export const EMBEDDINGS_TRACE_AGENT_REF = 'wildo.rag.embeddings';
/** Texts sent in one provider request at most (the adapter splits further where its API requires). */
export const EMBEDDINGS_BATCH_SIZE = 128;

/** Options of {@link EmbeddingsBackendService}. */
export interface EmbeddingsBackendOptions {
  /** The scope's provider registry (absent or without `selectForCapability`: no provider is configured). */
  providers: Partial<Pick<ProviderRegistry, 'selectForCapability'>>;
  traceSink: AgentTraceSink;
  budgets: Pick<TokenBudgetService, 'recordConsumption'>;
  clock: Clock;
  logger: Logger;
  /** The vendor model id; default the provider's catalogued embeddings default. */
  model?: string;
  /** Shortened vectors, for models that support it. */
  dimensions?: number;
  batchSize?: number;
}

/**
 * `EmbeddingsBackendService`: the one path from the RAG services to an embeddings provider. `resolveBinding`
 * tells a deliberately absent provider from a selected but broken one; `embedTexts` batches the texts, traces
 * each provider request like any model call (operation `EMBED_TEXTS`, dimensions and count, never vectors)
 * and charges its tokens to the tenant's budget.
 */
export class EmbeddingsBackendService {
  constructor(private readonly options: EmbeddingsBackendOptions) {}

  /** The binding (provider, model, dims) of the selected embeddings provider, or why there is none. */
  resolveBinding(): EmbeddingsBindingResolution {
    return this.resolve().resolution;
  }

  private resolve(): { resolution: EmbeddingsBindingResolution; embed?: LLMProviderAdapter['embed'] } {
    const select = this.options.providers.selectForCapability;
    if (!select) {
      const message = 'No runtime configuration declares providers.';
      return { resolution: { status: 'absent', reason: 'not_configured', message } };
    }
    const selection = select.call(this.options.providers, EngineCapability.AI_EMBEDDINGS);
    if (!selection.available) return { resolution: unavailable(selection) };
    const adapter: LLMProviderAdapter = selection.adapter;
    if (typeof adapter.embed !== 'function') {
      const message = `Provider "${selection.ref}" has no embeddings API.`;
      return { resolution: { status: 'misconfigured', reason: 'no_embeddings_api', message } };
    }
    const pinned = this.options.model;
    const resolved = resolveModel(selection.ref, {
      operationKey: EMBED_TEXTS_OPERATION,
      ...(pinned ? { model: findModelByVendorId(selection.ref, pinned)?.model ?? pinned } : {}),
    });
    if (!resolved.ok) {
      return { resolution: { status: 'misconfigured', reason: 'model_not_served', message: resolved.message } };
    }
    const { vendorModelId, embeddingDims } = resolved.resolved;
    const binding = {
      providerRef: selection.ref,
      model: vendorModelId,
      dims: this.options.dimensions ?? embeddingDims ?? 0,
      applicability: 'RESOURCE_RETRIEVAL' as const,
    };
    return { resolution: { status: 'bound', binding }, embed: adapter.embed.bind(adapter) };
  }

  /**
   * Embeds `texts` with the bound provider, in batches. Throws when no binding resolves (callers check
   * `resolveBinding` first) and when the provider fails (`ProviderCallError`).
   */
  async embedTexts(request: EmbedTextsRequest): Promise<EmbedTextsResult> {
    const { resolution, embed } = this.resolve();
    if (resolution.status !== 'bound' || !embed) {
      throw new Error(
        `Embeddings are unavailable: ${resolution.status === 'bound' ? 'no embeddings API' : resolution.message}`,
      );
    }
    const { binding } = resolution;
    const batchSize = this.options.batchSize ?? EMBEDDINGS_BATCH_SIZE;
    const vectors: number[][] = [];
    const usage: AgentCallUsage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    let model = binding.model;
    for (let start = 0; start < request.texts.length; start += batchSize) {
      const texts = request.texts.slice(start, start + batchSize);
      const startedAt = performance.now();
      try {
        const result = await embed({
          model: binding.model,
          texts,
          purpose: request.purpose,
          ...(this.options.dimensions !== undefined ? { dimensions: this.options.dimensions } : {}),
          ...(request.signal ? { signal: request.signal } : {}),
        });
        if (result.dims !== binding.dims) {
          throw new Error(
            `The provider returned ${result.dims}-dimensional vectors; the binding expects ${binding.dims}.`,
          );
        }
        vectors.push(...result.vectors);
        model = result.model;
        usage.inputTokens += result.usage.inputTokens;
        usage.totalTokens += result.usage.totalTokens;
        await this.account(request, binding.providerRef, binding.model, startedAt, {
          usage: result.usage,
          dims: result.dims,
          count: texts.length,
        });
      } catch (error) {
        await this.account(request, binding.providerRef, binding.model, startedAt, {
          error,
          dims: binding.dims,
          count: texts.length,
        });
        throw error;
      }
    }
    return { vectors, providerRef: binding.providerRef, model, dims: binding.dims, usage };
  }

  /** One trace per provider request, and its tokens to the tenant's budget; neither may fail the call. */
  private async account(
    request: EmbedTextsRequest,
    providerRef: string,
    model: string,
    startedAt: number,
    report: { usage?: AgentCallUsage; error?: unknown; dims: number; count: number },
  ): Promise<void> {
    const { traceSink, budgets, clock, logger } = this.options;
    const trace = {
      agentRef: EMBEDDINGS_TRACE_AGENT_REF,
      providerRef,
      model,
      operationKey: EMBED_TEXTS_OPERATION,
      outcome: report.error === undefined ? ('success' as const) : ('error' as const),
      attempt: 1,
      context: {
        executionTime: Math.round(performance.now() - startedAt),
        embeddingDims: report.dims,
        embeddingCount: report.count,
        ...(report.usage ? { usage: report.usage } : {}),
      },
      ...(report.error !== undefined ? { error: describe(report.error) } : {}),
      traceability: AgentTraceabilityLevel.METADATA,
      traceContext: {
        ...request.traceContext,
        attributes: { ...request.traceContext?.attributes, purpose: request.purpose },
      },
      timestamp: clock.now().toISOString(),
    };
    const tokens = report.usage?.totalTokens ?? 0;
    await Promise.all([
      Promise.resolve()
        .then(() => traceSink.emit(trace))
        .catch((error: unknown) => logger.warn('embeddings trace sink failed', { error: String(error) })),
      request.tenant && tokens > 0
        ? budgets
            .recordConsumption(request.tenant, tokens)
            .catch((error: unknown) =>
              logger.error('embeddings token consumption could not be recorded', { tokens, error: String(error) }),
            )
        : undefined,
    ]);
  }
}

function unavailable(selection: Extract<CapabilitySelection, { available: false }>): EmbeddingsBindingResolution {
  const { reason, message } = selection;
  switch (reason) {
    case 'capability_disabled':
      // The registry says so for the engine capability (a choice) and for a provider declared only for disabled
      // capabilities (a mistake in the configuration).
      return message.startsWith('Engine capability')
        ? { status: 'absent', reason: 'capability_disabled', message }
        : { status: 'misconfigured', reason: 'provider_unavailable', message };
    case 'not_selected':
      return { status: 'absent', reason: 'not_selected', message };
    case 'missing_credentials':
    case 'missing_credential':
      return { status: 'absent', reason: 'missing_credentials', message };
    case 'no_adapter':
    case 'invalid_base_url':
      return { status: 'misconfigured', reason, message };
    default:
      return { status: 'misconfigured', reason: 'provider_unavailable', message };
  }
}

function describe(error: unknown): { name: string; message: string } {
  if (error instanceof Error) return { name: error.name, message: error.message.slice(0, 500) };
  return { name: 'Error', message: String(error).slice(0, 500) };
}
