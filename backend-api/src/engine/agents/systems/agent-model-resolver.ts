import { LLMProvider_ReasoningEffort, type LLM_Model_Applicability } from '@wildo/shared-lib';
import type { AgentModelRequest, AgentModelResolution, AgentModelResolver } from './agents-registry.service.js';
import {
  MODEL_CATALOGUE,
  resolveModel,
  type ModelCatalogue,
  type ModelResolutionRequest,
  type ProviderOperationKey,
} from '../providers/index.js';

const REASONING_EFFORTS: readonly string[] = Object.values(LLMProvider_ReasoningEffort);

/**
 * The {@link AgentModelResolver} the engine registers agents with: {@link resolveModel} over `catalogue`.
 * A pinned model is checked as is, an applicability class resolves to the provider's one model for that class,
 * and anything the provider cannot serve is refused with the catalogue's message (what is wrong, and the fix).
 * Nothing is substituted: no other model, class or provider is ever chosen in the caller's place.
 *
 * @example
 * const registry = new AgentsRegistry(application, runtime, catalogueModelResolver());
 * registry.agent('triage')?.vendorModelId; // 'claude-haiku-5', what the adapter is called with
 */
export function catalogueModelResolver(catalogue: ModelCatalogue = MODEL_CATALOGUE): AgentModelResolver {
  return (providerRef: string, request: AgentModelRequest): AgentModelResolution => {
    if (request.reasoningEffort !== undefined && !REASONING_EFFORTS.includes(request.reasoningEffort)) {
      return {
        ok: false,
        message: `reasoningEffort "${request.reasoningEffort}" is not a reasoning effort; set one of ${REASONING_EFFORTS.join(', ')} or remove it.`,
      };
    }
    const catalogueRequest: ModelResolutionRequest = { operationKey: request.operationKey as ProviderOperationKey };
    if (request.model !== undefined) catalogueRequest.model = request.model;
    if (request.modelApplicability !== undefined)
      catalogueRequest.modelApplicability = request.modelApplicability as LLM_Model_Applicability;
    if (request.reasoningEffort !== undefined)
      catalogueRequest.reasoningEffort = request.reasoningEffort as ModelResolutionRequest['reasoningEffort'];
    if (request.temperature !== undefined) catalogueRequest.temperature = request.temperature;

    const resolution = resolveModel(providerRef, catalogueRequest, catalogue);
    if (resolution.ok)
      return { ok: true, model: resolution.resolved.model, vendorModelId: resolution.resolved.vendorModelId };
    if (resolution.reason === 'model_not_served') {
      // The catalogue names the models to pin; a language agent may instead let the provider choose by class.
      const entry = Object.hasOwn(catalogue, providerRef) ? catalogue[providerRef] : undefined;
      const classes = entry ? Object.keys(entry.classModels) : [];
      const servesOperationByClass = entry?.models.some(
        (model) => model.operations.includes(catalogueRequest.operationKey) && model.applicability.length > 0,
      );
      if (classes.length > 0 && servesOperationByClass) {
        return {
          ok: false,
          reason: resolution.reason,
          message: `${resolution.message} Or replace model with modelApplicability (${classes.join(', ')}) to let "${providerRef}" choose.`,
        };
      }
    }
    return { ok: false, reason: resolution.reason, message: resolution.message };
  };
}
