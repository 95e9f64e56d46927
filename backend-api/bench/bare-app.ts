import { TasksManager_ResourceType } from '@wildo/shared-lib/app';
import express, { type Express } from 'express';
import { resourceTableName, type SqlDatabase } from '../src/engine/persistence/index.js';

/**
 * The read the framework's store issues for `GET` one organization-scoped record (same columns, same
 * conditions, same table), written out by hand as a bare handler would.
 */
export const TODO_BY_ID = `SELECT id, seq, organization_id, user_id, created_by_user_id, created_by_type, created_by_id, created_at, updated_at, version, data
FROM "${resourceTableName(TasksManager_ResourceType.TODOS)}" WHERE id = $1 AND organization_id = $2`;

/** The path both apps serve, so the load generator sends the very same request to each. */
export const TODO_ROUTE = '/api/v1/organizations/:organizationId/todos/:id';

/**
 * The baseline: one Express 5 route doing the framework's SQL read of one todo on the same database, with
 * no authentication, context, authorization, validation or projection — the work the ratio prices.
 */
export function createBareTodoApp(database: SqlDatabase): Express {
  const app = express();
  // The framework turns both off; left on, Express would hash every body for an ETag and flatter the ratio.
  app.disable('etag');
  app.disable('x-powered-by');
  app.get(TODO_ROUTE, async (req, res) => {
    // Prepared like the store's statements, so both sides pay the same per-query cost on PostgreSQL.
    const { rows } = await database.query(TODO_BY_ID, [req.params.id, req.params.organizationId], { prepare: true });
    const row = rows[0];
    if (row === undefined) {
      res.status(404).json({ error: { code: 'NOT_FOUND' } });
      return;
    }
    res.json({ data: row });
  });
  return app;
}
