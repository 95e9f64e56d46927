/** Container tokens of the coding-agent runtime. */
export const CODING_TYPES = {
  /** `CodingAgentService`: the coding arm of `invokeAgent`, and the stored runs and sessions. */
  CodingAgentService: Symbol.for('wildo.coding.CodingAgentService'),
  /** `CodingRunStore`: runs and sessions in the application's database. */
  CodingRunStore: Symbol.for('wildo.coding.CodingRunStore'),
  /** `CodingAgentRuntimeOptions`: the environment subprocesses draw from, and the runtime settings. */
  CodingAgentRuntimeOptions: Symbol.for('wildo.coding.CodingAgentRuntimeOptions'),
} as const;
