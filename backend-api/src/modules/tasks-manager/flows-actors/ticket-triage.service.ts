import type {
  LLMProvider_GenerateStructuredInputSchema,
  LLMProvider_GenerateStructuredOutputSchema,
  LLMProvider_OperationContext_BaseSchema,
  FlowsActors_Agent_Invocation,
} from '@wildo/shared-lib';
import { inject, injectable } from 'inversify';
import type { z } from 'zod';
import { SAAS_SERVICE_TYPES, type AgentsBackendService } from '@wildo/backend-api';
import { TICKET_TRIAGE_AGENT_REF, TicketTriageSchema } from './ticket-triage.agent.js';

/** Triage of support tickets through the registered structured agent. */
@injectable()
export class TicketTriageBackendService {
  constructor(@inject(SAAS_SERVICE_TYPES.AgentsBackendService) private readonly agentsService: AgentsBackendService) {}

  /** Classifies one ticket; the answer is parsed again here (the application owns its contract). */
  public async triageTicket(ticketBody: string): Promise<z.infer<typeof TicketTriageSchema>> {
    const invocation: FlowsActors_Agent_Invocation<
      typeof LLMProvider_GenerateStructuredInputSchema,
      typeof LLMProvider_GenerateStructuredOutputSchema,
      typeof LLMProvider_OperationContext_BaseSchema
    > = {
      agentRef: TICKET_TRIAGE_AGENT_REF,
      initiator: {},
      invocationContext: [],
      input: { prompt: `Triage this support ticket:\n\n${ticketBody}`, schema: TicketTriageSchema },
      output: { object: {} },
      executionContext: { callTimestamp: new Date().toISOString() },
      artifactBindings: [],
    };
    const result = await this.agentsService.invokeAgent(invocation);
    return TicketTriageSchema.parse((result.output as { object: unknown }).object);
  }
}
