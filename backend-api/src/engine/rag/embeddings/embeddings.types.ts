import type { AgentCallUsage, EmbeddingsProvider_TextPurpose } from '@wildo/shared-lib';
import type { BudgetTenant } from '../../agents/budgets/index.js';

/** The retrieval class a binding serves (resource retrieval uses one vector space per application). */
export type EmbeddingsApplicability = 'RESOURCE_RETRIEVAL';

/** The selected provider, model and vector length: every stored vector carries these three. */
export interface EmbeddingsBinding {
  providerRef: string;
  /** The vendor's model id sent to the API. */
  model: string;
  dims: number;
  applicability: EmbeddingsApplicability;
}

/**
 * What `resolveBinding` found: a binding; a deliberately absent provider (the capability is off, nothing is
 * selected, or the selected provider's credential is not set); or a selected but broken configuration.
 */
export type EmbeddingsBindingResolution =
  | { status: 'bound'; binding: EmbeddingsBinding }
  | {
      status: 'absent';
      reason: 'not_configured' | 'capability_disabled' | 'not_selected' | 'missing_credentials';
      message: string;
    }
  | {
      status: 'misconfigured';
      reason: 'no_adapter' | 'invalid_base_url' | 'provider_unavailable' | 'model_not_served' | 'no_embeddings_api';
      message: string;
    };

/** An `embedTexts` request. */
export interface EmbedTextsRequest {
  texts: readonly string[];
  purpose: EmbeddingsProvider_TextPurpose;
  applicability: EmbeddingsApplicability;
  /** Charged with the call's tokens (the caller's tenant for a query, the chunk's for corpus passages). */
  tenant?: BudgetTenant;
  traceContext?: { traceId?: string; attributes?: Record<string, string | number | boolean> };
  signal?: AbortSignal;
}

/** Vectors in the order of the texts, with the binding they belong to. */
export interface EmbedTextsResult {
  vectors: number[][];
  providerRef: string;
  model: string;
  dims: number;
  usage: AgentCallUsage;
}
