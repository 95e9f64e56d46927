// Applications `wildo config sync --app` loads in tests: coding agents bound to the profiles of `codingConfigFixture`,
// one of them declared (as plain JavaScript could) without the executionProfileRef a coding agent requires.
import {
  CodingAgent_OperationContext_BaseSchema,
  CodingAgent_OperationKey,
  CodingAgent_RunTaskInputSchema,
  CodingAgent_RunTaskOutputSchema,
  FlowsActors_Agent_Skill_Type,
  FlowsActors_Agent_Status,
  ResourceOperationRiskLevel,
  type FlowsActors_Agent,
} from '@wildo/shared-lib';

function codingAgent(ref: string, executionProfileRef?: string): FlowsActors_Agent {
  return {
    ref,
    displayName: ref,
    status: FlowsActors_Agent_Status.ACTIVE,
    config: {
      providerRef: 'anthropic',
      operationKey: CodingAgent_OperationKey.RUN_TASK,
      ...(executionProfileRef ? { executionProfileRef } : {}),
      accessControl: [],
      riskLevel: ResourceOperationRiskLevel.HIGH,
    } as FlowsActors_Agent['config'],
    operationDefinition: {
      operationKey: CodingAgent_OperationKey.RUN_TASK,
      providerRef: 'anthropic',
      inputSchema: CodingAgent_RunTaskInputSchema,
      outputSchema: CodingAgent_RunTaskOutputSchema,
      operationContextSchema: CodingAgent_OperationContext_BaseSchema,
    },
    promptSpec: {
      role: 'Runs repository tasks.',
      skillType: FlowsActors_Agent_Skill_Type.GENERATION,
      instructions: [],
    },
  };
}

/** Every coding agent names a declared profile allowed in DEVELOPMENT. */
export const boundCodingApplication = {
  name: 'coding-sync',
  modules: [{ name: 'coding', flowsActors: { agents: [codingAgent('coding.bound', 'unrestricted')] } }],
};

/** One coding agent names no profile, one a profile allowed only in PRODUCTION. */
export const unboundCodingApplication = {
  name: 'coding-sync',
  modules: [
    {
      name: 'coding',
      flowsActors: {
        agents: [
          codingAgent('coding.bound', 'unrestricted'),
          codingAgent('coding.unbound'),
          codingAgent('coding.production', 'production-only'),
        ],
      },
    },
  ],
};
