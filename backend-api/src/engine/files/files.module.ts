import type { BackendDomainModule } from '../bootstrap/backend-domain-module.js';
import { FILES_MIGRATIONS } from './files.migrations.js';

/** The engine's file records (its services are built by `createWildoBackend`, before the store they guard). */
export const filesModule: BackendDomainModule = {
  name: 'wildo-files',
  migrations: FILES_MIGRATIONS,
};
