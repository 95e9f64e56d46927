import { ContainerModule } from 'inversify';
import type { FlowsActorsContribution } from '@wildo/backend-api';
import { ticketTriageAgent } from './ticket-triage.agent.js';
import { TicketTriageBackendService } from './ticket-triage.service.js';
import { TASKS_MANAGER_TYPES } from './tasks-manager.tokens.js';
import { todoAssistant } from './todo-assistant.js';

export {
  TICKET_TRIAGE_AGENT_REF,
  TicketCategory,
  TicketTriageSchema,
  TicketUrgency,
  ticketTriageAgent,
} from './ticket-triage.agent.js';
export { TicketTriageBackendService } from './ticket-triage.service.js';
export { TASKS_MANAGER_TYPES } from './tasks-manager.tokens.js';
export {
  buildTodoAssistantSystem,
  readTodoTool,
  renameTodoTool,
  TODO_ASSISTANT_AGENT_REF,
  TODO_ASSISTANT_SYSTEM_REF,
  todoAssistant,
  todoAssistantAgent,
} from './todo-assistant.js';

/** The tasks manager's agents, tools and systems: the triage agent, and the todo assistant with its agent and tools. */
export const tasksManagerFlowsActors: FlowsActorsContribution = {
  agents: [ticketTriageAgent, ...todoAssistant.agents],
  functionTools: todoAssistant.functionTools,
  flowActorSystemsFactoryMap: todoAssistant.flowActorSystemsFactoryMap,
};

/** The module's own services. */
export const tasksManagerContainerModule = new ContainerModule(({ bind }) => {
  bind(TASKS_MANAGER_TYPES.TicketTriageBackendService).to(TicketTriageBackendService).inSingletonScope();
});
