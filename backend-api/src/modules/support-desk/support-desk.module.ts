// The reference application's second module, written as an application developer would: a support desk where
// members file tickets and an assistant looks them up and closes them once a person approves.
import { CORE_ORG_ROLES, defineResource, LLM_Model, ResourceOperationEffect } from '@wildo/shared-lib';
import { ResourceOperationVariantType, ResourcePrimaryScope, resourceRecordSchema } from '@wildo/shared-lib';
import { z } from 'zod';
import { defineActorSystem, defineChatAgent, type BackendDomainModule } from '@wildo/backend-api';

const member = { variantType: ResourceOperationVariantType.API_CALL, roles: [CORE_ORG_ROLES.ORG_MEMBER] };

/** A support ticket: members file and edit it; only `close` settles it. */
export const TicketSchema = z.object({
  title: z.string().min(1).max(200).describe('What the ticket is about.'),
  body: z.string().max(5_000).optional(),
  status: z.enum(['open', 'closed']).default('open'),
  resolution: z.string().max(1_000).nullable().default(null),
});

/** The organization's tickets: members create, read, edit, list (by status) and close them; managers delete them. */
export const tickets = defineResource({
  type: 'tickets',
  displayName: 'Support tickets',
  primaryScope: ResourcePrimaryScope.ORGANIZATIONS,
  schema: TicketSchema,
  readOnlyFields: ['status', 'resolution'],
  customOperations: {
    close: {
      target: 'instance',
      requestSchema: z.strictObject({ resolution: z.string().min(1).max(1_000).describe('How it was resolved.') }),
      responseSchema: resourceRecordSchema(TicketSchema, ResourcePrimaryScope.ORGANIZATIONS),
      effect: ResourceOperationEffect.WRITE,
      description: 'Closes one open ticket with its resolution.',
    },
  },
  operationsConfiguration: {
    create: { variants: [member] },
    read: { variants: [member] },
    update: { variants: [member] },
    delete: { variants: [{ ...member, roles: [CORE_ORG_ROLES.ORG_MANAGER] }] },
    list: { variants: [{ ...member, filters: ['status'] }] },
    close: { variants: [member] },
  },
});

/** The `close` operation: refuses a closed ticket, then records the resolution. */
export const ticketsService = tickets.implement({
  close: async ({ id, record, input, utils }) => {
    if (record.status === 'closed') throw utils.errorBuilder.conflict('The ticket is already closed.');
    const closed = await utils.records.update(id, { status: 'closed', resolution: input.resolution });
    if (!closed) throw utils.errorBuilder.notFound();
    return closed;
  },
});

/** The assistant: reads tickets, and closes one only after the person approves. */
export const supportAgent = defineChatAgent({
  ref: 'support-desk.chat.agent',
  provider: 'anthropic',
  model: LLM_Model.CLAUDE_SONNET_5,
  prompt: { role: 'You help members handle support tickets.', instructions: ['Look a ticket up before closing it.'] },
  tools: [tickets.tools.read(), tickets.tools.write('close', { requiresHumanApproval: true })],
  access: [{ primaryScope: ResourcePrimaryScope.ORGANIZATIONS, roles: [CORE_ORG_ROLES.ORG_MEMBER] }],
});

/** Where members talk to the assistant: `/organizations/:id/flows-actors/systems/support-desk/turns`. */
export const supportDesk = defineActorSystem({ ref: 'support-desk', displayName: 'Support', agents: [supportAgent] });

export const supportDeskModule: BackendDomainModule = {
  name: 'support-desk',
  resources: [tickets],
  customServiceImplementations: [ticketsService],
  flowsActors: supportDesk,
};
