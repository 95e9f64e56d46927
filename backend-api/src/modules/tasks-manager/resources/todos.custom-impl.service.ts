import {
  TasksManager_ResourceType,
  TodoStatsResponseSchema,
  Todos_Operations,
  Todos_Status,
  type CompleteTodoRequestSchema,
  type TodoStatsRequestSchema,
  type TodoStatsResponse,
} from '@wildo/shared-lib';
import type { z } from 'zod';
import { createResourceCustomServiceImplementation, type CustomOperationArgs } from '../../../engine/index.js';

type CompleteArgs = CustomOperationArgs<z.infer<typeof CompleteTodoRequestSchema>>;
type StatsArgs = CustomOperationArgs<z.infer<typeof TodoStatsRequestSchema>>;

/** Service code of the todos resource: the `complete` and `stats` operations. */
export const todosCustomImplementation = createResourceCustomServiceImplementation(TasksManager_ResourceType.TODOS, {
  customOperations: {
    [Todos_Operations.COMPLETE]: async ({ id, input, utils }: CompleteArgs) => {
      const updated = await utils.records.update(id as string, {
        status: Todos_Status.DONE,
        completedAt: utils.now().toISOString(),
        completionNote: input.note ?? null,
      });
      if (!updated) throw utils.errorBuilder.notFound();
      return updated;
    },
    [Todos_Operations.STATS]: async ({ input, utils }: StatsArgs): Promise<TodoStatsResponse> => {
      const counts = await utils.records.countBy('status', input.assignee ? { assignee: input.assignee } : {});
      const byStatus = { todo: 0, in_progress: 0, done: 0 };
      for (const status of Object.values(Todos_Status)) byStatus[status] = counts.get(status) ?? 0;
      return TodoStatsResponseSchema.parse({ total: byStatus.todo + byStatus.in_progress + byStatus.done, byStatus });
    },
  },
});
