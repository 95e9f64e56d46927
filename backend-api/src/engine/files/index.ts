/**
 * Files: storage behind an interface, file records (size, media type, SHA-256, state), the check of `z_file` values
 * on every record write (the store wrapper, and early on the dispatch path), and upload grants (REST
 * mint/upload/status routes, derived MCP tools).
 */
export { fileFieldsOf, fileIdsIn, isUserUploadable, type FileField } from './file-fields.js';
export {
  FileRecordsService,
  type FileRecord,
  type FileState,
  type FileUpload,
  type FileUploader,
} from './file-records.service.js';
export { FileReferenceCheck } from './file-reference.check.js';
export { FileReferencingStore, withFileReferences } from './file-referencing-store.js';
export {
  FILE_STORAGE_CHUNK_BYTES,
  FileIntegrityError,
  LocalDirectoryFileStorage,
  readAllBytes,
  type FileBytesSource,
  type FileStorage,
  type StoredBytes,
} from './file-storage.js';
export { DatabaseFileStorage } from './file-storage.database.js';
export {
  DeclaredFileSchema,
  FILE_UPLOAD_GRANT_DEFAULT_MINUTES,
  FILE_UPLOAD_GRANT_MAX_MINUTES,
  MintUploadGrantBodySchema,
  UPLOAD_GRANT_HEADER,
  type DeclaredFile,
  type FileUploadGrantMetadata,
  type UploadedFileDescription,
  type UploadFieldDescription,
  type UploadGrantOperation,
  type UploadGrantResponse,
  type UploadGrantState,
  type UploadGrantStatus,
} from './file-upload-grant.schema.js';
export { FileUploadGrantService, type MintUploadGrantRequest } from './file-upload-grant.service.js';
export { FILES_MIGRATIONS } from './files.migrations.js';
export { FILES_TYPES } from './files.tokens.js';
export { filesModule } from './files.module.js';
export { bindUploadGrants } from './files.bindings.js';
export {
  FILE_STORAGE_KINDS,
  openFileStorage,
  type FileStorageKind,
  type OpenFileStorageOptions,
} from './file-storage.open.js';
export { createFileGrantRouter, createFileUploadRouter } from './file-upload.routes.js';
export { FileUploadRedemption } from './file-upload-redemption.js';
