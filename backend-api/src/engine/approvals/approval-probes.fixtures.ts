import { CORE_ORG_ROLES, defineResource, ResourceOperationVariantType, ResourcePrimaryScope } from '@wildo/shared-lib';
import { z } from 'zod';
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

/** A module serving the refunds beside the governance probes. */
export const approvalProbesModule: BackendDomainModule = {
  name: 'refunds',
  resources: [refunds],
  customServiceImplementations: [refundsService],
};
