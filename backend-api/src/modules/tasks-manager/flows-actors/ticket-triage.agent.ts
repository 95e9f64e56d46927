import {
  FlowsActors_Agent_Skill_Type,
  FlowsActors_Agent_Status,
  LLM_Model_Applicability,
  LLMProvider_GenerateStructuredInputSchema,
  LLMProvider_GenerateStructuredOutputSchema,
  LLMProvider_OperationContext_BaseSchema,
  LLMProvider_OperationKey,
  LLMProvider_ReasoningEffort,
  ResourceOperationRiskLevel,
  ResourcePrimaryScope,
  type FlowsActors_Agent,
  type LLMProvider_OperationDefinitionBase,
} from '@wildo/shared-lib';
import { z } from 'zod';

/** The triage agent's ref. */
export const TICKET_TRIAGE_AGENT_REF = 'support.ticket-triage.agent';

/** Where a ticket belongs. */
export enum TicketCategory {
  BILLING = 'billing',
  BUG = 'bug',
  FEATURE_REQUEST = 'feature_request',
  ACCOUNT = 'account',
  OTHER = 'other',
}

/** How soon a person must answer. */
export enum TicketUrgency {
  LOW = 'low',
  MEDIUM = 'medium',
  HIGH = 'high',
}

/** The triage contract: the descriptions tell the model what the fields mean; parsing proves the shape. */
export const TicketTriageSchema = z.object({
  category: z.enum(TicketCategory).describe('The single best-fitting category for the ticket.'),
  urgency: z
    .enum(TicketUrgency)
    .describe(
      `How quickly a human must respond. "${TicketUrgency.HIGH}" only for outages, data loss, or billing failures.`,
    ),
  summary: z.string().max(200).describe('One-sentence neutral summary of what the customer is asking for.'),
});

/** A structured agent: one ticket in, one validated triage out. The class resolves to a concrete model at registration. */
export const ticketTriageAgent: FlowsActors_Agent = {
  ref: TICKET_TRIAGE_AGENT_REF,
  displayName: 'Support Ticket Triage',
  status: FlowsActors_Agent_Status.ACTIVE,
  config: {
    providerRef: 'anthropic',
    modelApplicability: LLM_Model_Applicability.STRUCTURED_AUTHORING,
    operationKey: LLMProvider_OperationKey.GENERATE_STRUCTURED,
    reasoningEffort: LLMProvider_ReasoningEffort.LOW,
    accessControl: [{ primaryScope: ResourcePrimaryScope.APPLICATION, requiresApproval: false }],
    riskLevel: ResourceOperationRiskLevel.LOW,
  },
  operationDefinition: {
    operationKey: LLMProvider_OperationKey.GENERATE_STRUCTURED,
    providerRef: 'anthropic',
    inputSchema: LLMProvider_GenerateStructuredInputSchema,
    outputSchema: LLMProvider_GenerateStructuredOutputSchema,
    operationContextSchema: LLMProvider_OperationContext_BaseSchema,
  } satisfies LLMProvider_OperationDefinitionBase,
  promptSpec: {
    role: 'You triage inbound customer support tickets for a SaaS product.',
    persona: 'You are terse and literal. You classify only what the ticket actually says.',
    skillType: FlowsActors_Agent_Skill_Type.ANALYSIS,
    instructions: [
      'Choose exactly one category. When a ticket spans several, pick the one the customer is asking you to ACT on.',
      'Reserve "high" urgency for outages, data loss, or failed payments. Frustrated tone alone is not urgency.',
      'Summarize what the customer wants, never what you would do about it.',
      'Never infer facts the ticket does not state — no account ids, no product names, no dates.',
    ],
  },
  createdAt: '2026-08-01T00:00:00.000Z',
};
