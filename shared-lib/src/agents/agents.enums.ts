/** Whether an agent can be invoked. */
export enum FlowsActors_Agent_Status {
  ACTIVE = 'ACTIVE',
  INACTIVE = 'INACTIVE',
}

/** The kind of work an agent's prompt sets up. */
export enum FlowsActors_Agent_Skill_Type {
  ANALYSIS = 'ANALYSIS',
  GENERATION = 'GENERATION',
  CHAT = 'CHAT',
}

/** The kinds of content an agent takes or produces. */
export enum FlowsActors_IO_PartKind {
  TEXT = 'TEXT',
  IMAGE = 'IMAGE',
}

/** Language-model operations. */
export enum LLMProvider_OperationKey {
  GENERATE_STRUCTURED = 'GENERATE_STRUCTURED',
  CHAT_COMPLETION = 'CHAT_COMPLETION',
}

/** Image operations. */
export enum ImageProvider_OperationKey {
  GENERATE_IMAGE = 'GENERATE_IMAGE',
}

/** How much a reasoning model may think before answering. */
export enum LLMProvider_ReasoningEffort {
  LOW = 'low',
  MEDIUM = 'medium',
  HIGH = 'high',
}

/** Concrete language models the framework knows. */
export enum LLM_Model {
  CLAUDE_OPUS_5 = 'claude-opus-5',
  CLAUDE_SONNET_5 = 'claude-sonnet-5',
  CLAUDE_HAIKU_5 = 'claude-haiku-5',
  GPT_5 = 'gpt-5',
  GPT_5_MINI = 'gpt-5-mini',
}

/** Classes of work a model is chosen for; each provider resolves a class to one of its models at registration. */
export enum LLM_Model_Applicability {
  STRUCTURED_AUTHORING = 'STRUCTURED_AUTHORING',
  CONVERSATION = 'CONVERSATION',
  FAST_CLASSIFICATION = 'FAST_CLASSIFICATION',
}

/** Image models. */
export enum ImageProvider_Model {
  OPEN_AI_GPT_IMAGE_1_5 = 'gpt-image-1.5',
}

/** Image sizes. */
export enum ImageProvider_Size {
  SQUARE_1024 = '1024x1024',
  PORTRAIT_1024x1536 = '1024x1536',
  LANDSCAPE_1536x1024 = '1536x1024',
}

/** Image quality. */
export enum ImageProvider_Quality {
  LOW = 'low',
  MEDIUM = 'medium',
  HIGH = 'high',
}

/** Image background. */
export enum ImageProvider_Background {
  TRANSPARENT = 'transparent',
  OPAQUE = 'opaque',
}

/** Image file format. */
export enum ImageProvider_OutputFormat {
  PNG = 'png',
  JPEG = 'jpeg',
  WEBP = 'webp',
}

/** Why texts are embedded: queries and corpus passages may be encoded differently by a provider. */
export enum EmbeddingsProvider_TextPurpose {
  QUERY = 'QUERY',
  CORPUS = 'CORPUS',
}

/** How much of a model call the structured logger records; content only at `DEBUG_VERBOSE`. */
export enum AgentTraceabilityLevel {
  METADATA = 'METADATA',
  DEBUG_VERBOSE = 'DEBUG_VERBOSE',
}

/** The two kinds of systems (a discriminated union on `kind`). */
export enum FlowActorSystem_Kind {
  ACTOR = 'ACTOR',
  FLOW = 'FLOW',
}

/** Whether a system can be used. */
export enum FlowActorSystem_Status {
  ACTIVE = 'ACTIVE',
  INACTIVE = 'INACTIVE',
}

/** Where a system may be reached from. */
export enum FlowActorSystem_Visibility {
  FRONTEND = 'FRONTEND',
  BACKEND = 'BACKEND',
}

/** What an actor does in its system. */
export enum Actor_Role_Category {
  OPERATOR = 'OPERATOR',
  REVIEWER = 'REVIEWER',
}

/** How an actor runs. */
export enum Actor_ExecutionMode {
  AGENTIC = 'AGENTIC',
  SCRIPTED = 'SCRIPTED',
}
