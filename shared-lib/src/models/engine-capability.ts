/** Engine-level features an application switches on in `wildo.saas.config.ts`. */
export enum EngineCapability {
  AI_LLM = 'AI_LLM',
  AI_EMBEDDINGS = 'AI_EMBEDDINGS',
  AI_CODING_AGENT = 'AI_CODING_AGENT',
  LLM_OBSERVABILITY = 'LLM_OBSERVABILITY',
}
