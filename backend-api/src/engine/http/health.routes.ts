import { Router } from 'express';
import { ENGINE_VERSION } from '../config/index.js';
import { sendData } from '../routing/index.js';
import { HEALTH_PATH } from '../urls/index.js';

/** What the health check asks: the database adapter answers whether it can serve a statement now. */
export interface DatabaseHealth {
  /** True when the database answers; false on any failure (never throws). */
  checkHealth(): Promise<boolean>;
}

/** Whether the backend is draining (a shutdown started): readiness then says so. */
export interface ServingHealth {
  readonly draining: boolean;
}

/**
 * `GET /health`: 200 when the database answers, 503 otherwise (no internal detail either way). `GET /health/ready`:
 * the same, and 503 `draining` once a shutdown started, so a load balancer stops sending new requests here.
 */
export function createHealthRouter(database: DatabaseHealth, serving?: ServingHealth): Router {
  const router = Router();
  router.get(`${HEALTH_PATH}/ready`, async (_req, res) => {
    if (serving?.draining) {
      sendData(res, 503, { status: 'draining', version: ENGINE_VERSION });
      return;
    }
    const healthy = await database.checkHealth();
    sendData(res, healthy ? 200 : 503, { status: healthy ? 'ready' : 'unavailable', version: ENGINE_VERSION });
  });
  router.get(HEALTH_PATH, async (_req, res) => {
    const healthy = await database.checkHealth();
    sendData(res, healthy ? 200 : 503, { status: healthy ? 'ok' : 'unavailable', version: ENGINE_VERSION });
  });
  return router;
}
