// The guide's coding-agent dispatch (guide: "Dispatch the task in a trusted workspace"): the invocation and the
// `invokeAgent` call with its third argument, verbatim. The surrounding class stands for the guide's companion
// host; `buildApplicationCodingTaskLocationPredicate`, `task`, `resume` and `renderedPrompt` are that host's own.
// The runtime test runs it against the stub ACP agent (coding-agent.guide.test.ts).
import {
  CodingAgent_OperationContext_BaseSchema,
  CodingAgent_RunTaskInputSchema,
  CodingAgent_RunTaskOutputSchema,
  CodingAgent_StopReason,
  type AgentCallTraceEmission,
  type CodingAgent_RunTaskOutput,
  type FlowsActors_Agent_Invocation,
} from '@wildo-ai/saas-models';
import { SAAS_SERVICE_TYPES, type AgentsBackendService } from '@wildo-ai/saas-backend-lib';
import { inject, injectable } from 'inversify';
import path from 'node:path';

export const APPLICATION_CODING_AGENT_REF = 'application-coding.agent';

interface ApplicationCodingTask {
  mutationScope: { allowedPathPrefixes: readonly string[]; prohibitedPathPrefixes: readonly string[] };
}

/** The host's own predicate: a location inside the workspace, under an allowed prefix and no prohibited one. */
export function buildApplicationCodingTaskLocationPredicate(
  root: string,
  allowed: readonly string[],
  prohibited: readonly string[],
) {
  const under = (location: string, prefix: string) => {
    const relative = path.relative(path.resolve(root, prefix), location);
    return (
      relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
    );
  };
  return (location: string): boolean => {
    const absolute = path.resolve(root, location);
    return (
      under(absolute, '.') &&
      allowed.some((prefix) => under(absolute, prefix)) &&
      !prohibited.some((prefix) => under(absolute, prefix))
    );
  };
}

@injectable()
export class ApplicationCodingTaskRunner {
  private activeRun: { abortController: AbortController } | undefined;

  constructor(
    @inject(SAAS_SERVICE_TYPES.AgentsBackendService) private readonly agentsService: AgentsBackendService,
    private readonly companionContext: { saasRoot: string },
  ) {}

  async run(
    task: ApplicationCodingTask,
    renderedPrompt: string,
    resume: { answerPrompt: string; continuationOfSessionId: string } | undefined,
    traceContext: AgentCallTraceEmission['traceContext'],
  ) {
    this.activeRun = { abortController: new AbortController() };
    const invocation: FlowsActors_Agent_Invocation<
      typeof CodingAgent_RunTaskInputSchema,
      typeof CodingAgent_RunTaskOutputSchema,
      typeof CodingAgent_OperationContext_BaseSchema
    > = {
      agentRef: APPLICATION_CODING_AGENT_REF,
      initiator: {},
      invocationContext: [],
      input: resume
        ? { prompt: resume.answerPrompt, continuationOfSessionId: resume.continuationOfSessionId }
        : { prompt: renderedPrompt },
      output: { finalMessage: '', stopReason: CodingAgent_StopReason.END_TURN },
      executionContext: { callTimestamp: new Date().toISOString() },
      artifactBindings: [],
    };

    const response = await this.agentsService.invokeAgent(invocation, traceContext, {
      workspaceRootPath: this.companionContext.saasRoot,
      isPermittedCodingLocation: buildApplicationCodingTaskLocationPredicate(
        this.companionContext.saasRoot,
        task.mutationScope.allowedPathPrefixes,
        task.mutationScope.prohibitedPathPrefixes,
      ),
      ...(this.activeRun ? { codingSessionAbortSignal: this.activeRun.abortController.signal } : {}),
    });
    const codingOutput = response.output as Partial<CodingAgent_RunTaskOutput> | undefined;
    const text = codingOutput?.finalMessage;
    const stopReason = codingOutput?.stopReason;
    return { text, stopReason, sessionId: codingOutput?.sessionId };
  }
}
