import { Router } from 'express';
import type { SqlDatabase } from '../persistence/sql-database.js';
import { sendData } from '../routing/http-state.js';

/** The engine's version, reported by the health endpoint. */
export const ENGINE_VERSION = '0.1.0';

/** `GET /health`: 200 when the database answers, 503 otherwise (no internal detail either way). */
export function createHealthRouter(db: SqlDatabase): Router {
  const router = Router();
  router.get('/health', async (_req, res) => {
    try {
      await db.query('SELECT 1');
      sendData(res, 200, { status: 'ok', version: ENGINE_VERSION });
    } catch {
      sendData(res, 503, { status: 'unavailable', version: ENGINE_VERSION });
    }
  });
  return router;
}
