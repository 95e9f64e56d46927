/** Injection tokens of the tasks manager's own services. */
export const TASKS_MANAGER_TYPES = {
  TicketTriageBackendService: Symbol.for('tasks-manager.TicketTriageBackendService'),
} as const;
