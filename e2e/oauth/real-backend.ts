import {
  createLogger,
  createWildoBackend,
  type BackendApplicationDefinition,
  type WildoBackend,
} from '@wildo/backend-api';
import { createPgliteDatabase } from '@wildo/backend-api/persistence';
import { pgliteTemplateDump } from '@wildo/backend-api/testing/pglite-template';
import { referenceApplication } from '@wildo/backend-api/reference-application';
import { freePort } from '@wildo/backend-api/testing/backend-process';
import { referenceRuntimeOptions } from '../reference-runtime.js';

/** A fixed primary secret for this test only (32+ characters, as the engine requires). */
export const OAUTH_E2E_PRIMARY_SECRET = 'e2e-oauth-primary-secret-0123456789-abcdefghij';

/** The reference application served over real HTTP on 127.0.0.1, with its OAuth server and (optionally) the built frontend. */
export interface RealBackend {
  /** `http://127.0.0.1:<port>`: the public URL, the OAuth issuer and the frontend's origin at once. */
  issuer: string;
  backend: WildoBackend;
  /** Lines the backend logged at `error` level (an unexpected failure inside an endpoint lands here). */
  errorLog: string[];
  close(): Promise<void>;
}

/**
 * Starts the reference application (or `application`) with dynamic client registration on, in-memory PGlite, a fixed test
 * secret and `publicUrl` = `frontendUrl` = the URL it listens on; serves `frontendDist` when given, and
 * reads provider settings from `env` when given (none by default).
 */
export async function startRealBackend(
  options: { frontendDist?: string; env?: Record<string, string>; application?: BackendApplicationDefinition } = {},
): Promise<RealBackend> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const errorLog: string[] = [];
  const database = await createPgliteDatabase({ loadDataDir: await pgliteTemplateDump() });
  let backend: WildoBackend | undefined;
  try {
    backend = await createWildoBackend({
      application: options.application ?? referenceApplication,
      database,
      logger: createLogger({ level: 'error', destination: { write: (line: string) => void errorLog.push(line) } }),
      primarySecret: OAUTH_E2E_PRIMARY_SECRET,
      ...(await referenceRuntimeOptions()),
      // Provider settings (stand-in models' base URLs and keys), when a scenario talks to an assistant.
      ...(options.env ? { env: options.env } : {}),
      publicUrl: issuer,
      frontendUrl: issuer,
      oauth: { dynamicClientRegistration: { enabled: true, maxRegistrationsPerHourPerIp: 20 } },
      ...(options.frontendDist ? { http: { frontendDist: options.frontendDist } } : {}),
    });
    const { url } = await backend.listen(port, '127.0.0.1');
    if (url !== issuer) throw new Error(`the backend listens at ${url}, not at its public URL ${issuer}`);
  } catch (error) {
    await backend?.close();
    await database.close();
    throw error;
  }
  const started = backend;
  return {
    issuer,
    backend: started,
    errorLog,
    async close() {
      try {
        await started.close();
      } finally {
        await database.close();
      }
    },
  };
}
