// The reference application's connector example: a travel desk that fronts an agency's existing REST API and its
// reporting database (see e2e/synthetic-agency for the agency, which over-exposes on purpose). Nothing is stored
// here; everything an assistant or a client sees passed the declared contracts.
import { CORE_ORG_ROLES, LLM_Model, ResourcePrimaryScope } from '@wildo/shared-lib';
import { defineActorSystem, defineChatAgent, type BackendDomainModule } from '@wildo/backend-api';
import { agencyReports, agencyReportsBinding } from './agency-reports.resource.js';
import { hotels, hotelsBinding } from './hotels.resource.js';

/** The assistant: finds, prices and books stays, pays as a manager, and reads the month's report. */
export const travelDeskAgent = defineChatAgent({
  ref: 'travel-desk.chat.agent',
  provider: 'anthropic',
  model: LLM_Model.CLAUDE_SONNET_5,
  prompt: {
    role: 'You help members find, price and book stays with the travel agency.',
    instructions: ['Find stays before you quote; quote before you book.', 'Never invent a stay, a price or an id.'],
  },
  tools: [
    hotels.tools.write('find'),
    hotels.tools.write('details'),
    hotels.tools.write('photos'),
    hotels.tools.write('pages'),
    hotels.tools.write('description'),
    hotels.tools.write('availability'),
    hotels.tools.write('room-status'),
    hotels.tools.write('quote'),
    hotels.tools.write('book'),
    hotels.tools.write('pay'),
    agencyReports.tools.write('bookings-by-city'),
  ],
  access: [{ primaryScope: ResourcePrimaryScope.ORGANIZATIONS, roles: [CORE_ORG_ROLES.ORG_MEMBER] }],
});

/** Where members talk to it: `/organizations/:id/flows-actors/systems/travel-desk/turns`. */
export const travelDesk = defineActorSystem({
  ref: 'travel-desk',
  displayName: 'Travel desk',
  agents: [travelDeskAgent],
});

export const travelDeskModule: BackendDomainModule = {
  name: 'travel-desk',
  resources: [hotels, agencyReports],
  customServiceImplementations: [hotelsBinding, agencyReportsBinding],
  flowsActors: travelDesk,
};
