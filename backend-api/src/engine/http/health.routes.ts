import { Router } from 'express';
import { ENGINE_VERSION } from '../config/index.js';
import { sendData } from '../routing/index.js';
import { HEALTH_PATH } from '../urls/index.js';

/** What the health check asks: the database adapter answers whether it can serve a statement now. */
export interface DatabaseHealth {
  /** True when the database answers; false on any failure (never throws). */
  checkHealth(): Promise<boolean>;
}

/** `GET /health`: 200 when the database answers, 503 otherwise (no internal detail either way). */
export function createHealthRouter(database: DatabaseHealth): Router {
  const router = Router();
  router.get(HEALTH_PATH, async (_req, res) => {
    const healthy = await database.checkHealth();
    sendData(res, healthy ? 200 : 503, { status: healthy ? 'ok' : 'unavailable', version: ENGINE_VERSION });
  });
  return router;
}
