import {
  CORE_ORG_ROLES,
  defineResource,
  LLM_Model,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
} from '@wildo/shared-lib';
import { z } from 'zod';
import { defineActorSystem, defineChatAgent } from '../agents/systems/define-agent.js';
import type { BackendDomainModule } from '../bootstrap/backend-domain-module.js';
import { agency } from '../governance/governance-probes.fixtures.js';

/** Refunds the agency pays out: each one needs a person's approval, on every surface. */
export const refunds = defineResource({
  type: 'refunds',
  displayName: 'Refunds',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: z.object({ note: z.string().max(100) }),
  customOperations: {
    issue: {
      target: 'collection',
      requestSchema: z.object({
        bookingId: z.string().min(1).max(40),
        amount: z.number().positive(),
        note: z.string().max(200).optional(),
      }),
      responseSchema: z.object({ refunded: z.number() }),
      effect: 'irreversible',
      description: 'Refunds a booking: the agency pays the amount back to the guest.',
    },
  },
  operationsConfiguration: {
    issue: {
      variants: [
        {
          variantType: ResourceOperationVariantType.API_CALL,
          roles: [CORE_ORG_ROLES.ORG_MEMBER],
          mcp: { exposed: true },
          approval: { required: true, lifetimeSeconds: 600 },
        },
      ],
    },
  },
});

/** The refunds' handler: it asks the agency, which counts every call it receives. */
export const refundsService = refunds.implement({
  issue: async ({ input }) => agency.ask('refund', () => ({ refunded: input.amount })),
});

/** The refund tool: it does not ask for approval itself; the operation's declaration makes the conversation pause. */
export const issueRefundTool = refunds.tools.write('issue', {
  inputSchema: z.object({ bookingId: z.string().min(1).max(40), amount: z.number().positive() }),
});

/** A refund desk an organization's members talk to (REST turns and A2A tasks). */
export const refundDesk = defineActorSystem({
  ref: 'refund-desk',
  displayName: 'Refund desk',
  agents: [
    {
      agent: defineChatAgent({
        ref: 'refund-desk.chat.agent',
        displayName: 'Refund desk',
        provider: 'anthropic',
        model: LLM_Model.CLAUDE_SONNET_5,
        prompt: { role: 'You refund bookings when asked.', persona: 'Brief.', instructions: ['Refund what is asked.'] },
        tools: [issueRefundTool],
        access: [{ primaryScope: ResourcePrimaryScope.ORGANIZATIONS, roles: [CORE_ORG_ROLES.ORG_MEMBER] }],
      }),
      ref: 'refund-desk.operator',
      displayName: 'Desk',
    },
  ],
});

/** A module serving the refunds (and their desk) beside the governance probes. */
export const approvalProbesModule: BackendDomainModule = {
  name: 'refunds',
  resources: [refunds],
  customServiceImplementations: [refundsService],
  flowsActors: refundDesk,
};
