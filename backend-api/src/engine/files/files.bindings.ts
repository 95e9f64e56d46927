import type { Container } from 'inversify';
import { SAAS_SERVICE_TYPES as T, type Clock } from '../container/index.js';
import type { ConsumableTokenService, RoleHierarchyResolver } from '../identity/index.js';
import type { Logger } from '../logging/index.js';
import type { ResourceStore } from '../persistence/index.js';
import type { PublicUrls } from '../public-urls/index.js';
import type { ExecutionContextCreator, OperationAdmission, ResourcesRegistry } from '../resources/index.js';
import type { FileRecordsService } from './file-records.service.js';
import { FileUploadGrantService } from './file-upload-grant.service.js';
import { FileUploadRedemption } from './file-upload-redemption.js';
import { FILES_TYPES } from './files.tokens.js';

/** What {@link bindUploadGrants} takes besides the container's own services. */
export interface UploadGrantBindings {
  registry: ResourcesRegistry;
  store: ResourceStore;
  files: FileRecordsService;
  /** The backend's public URLs when one is configured (without, minting is refused). */
  urls?: PublicUrls;
  clock: Clock;
  logger: Logger;
}

/**
 * Binds the upload grant service and its redemption. The engine's services they use (contexts, admission, roles,
 * consumable tokens) are resolved on first use, so this may run before the engine module is loaded.
 */
export function bindUploadGrants(container: Container, bindings: UploadGrantBindings): void {
  container
    .bind(FILES_TYPES.FileUploadGrants)
    .toDynamicValue(
      () =>
        new FileUploadGrantService({
          registry: bindings.registry,
          contexts: container.get<ExecutionContextCreator>(T.ExecutionContextCreator),
          admission: container.get<OperationAdmission>(T.OperationAdmission),
          roles: container.get<RoleHierarchyResolver>(T.RoleHierarchyResolver),
          store: bindings.store,
          tokens: container.get<ConsumableTokenService>(T.ConsumableTokenService),
          files: bindings.files,
          urls: bindings.urls,
          clock: bindings.clock,
        }),
    )
    .inSingletonScope();
  container
    .bind(FILES_TYPES.FileUploadRedemption)
    .toDynamicValue(
      () =>
        new FileUploadRedemption(
          container.get<FileUploadGrantService>(FILES_TYPES.FileUploadGrants),
          container.get<ConsumableTokenService>(T.ConsumableTokenService),
          bindings.files,
          bindings.clock,
          bindings.logger,
        ),
    )
    .inSingletonScope();
}
