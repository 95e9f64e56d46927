import type { ResourcesModule } from '../resources/index.js';
import { FILES_MIGRATIONS } from './files.migrations.js';

/** The engine's file records (its services are built by `createWildoBackend`, before the store they guard). */
export const filesModule: ResourcesModule = {
  name: 'wildo-files',
  migrations: FILES_MIGRATIONS,
};
