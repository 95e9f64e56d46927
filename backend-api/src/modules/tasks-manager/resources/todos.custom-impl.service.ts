import { TodoStatsResponseSchema, Todos_Operations, Todos_Status } from '@wildo/shared-lib/app';
import { todosResource } from './todos.resource.js';

/** Service code of the todos resource: the `complete` and `stats` operations, typed from their declarations. */
export const todosCustomImplementation = todosResource.implement({
  [Todos_Operations.COMPLETE]: async ({ id, input, utils }) => {
    const updated = await utils.records.update(id, {
      status: Todos_Status.DONE,
      completedAt: utils.now().toISOString(),
      completionNote: input.note ?? null,
    });
    if (!updated) throw utils.errorBuilder.notFound();
    return updated;
  },
  [Todos_Operations.STATS]: async ({ input, utils }) => {
    const counts = await utils.records.countBy('status', input.assignee ? { assignee: input.assignee } : {});
    const byStatus = { todo: 0, in_progress: 0, done: 0 };
    for (const status of Object.values(Todos_Status)) byStatus[status] = counts.get(status) ?? 0;
    return TodoStatsResponseSchema.parse({ total: byStatus.todo + byStatus.in_progress + byStatus.done, byStatus });
  },
});
