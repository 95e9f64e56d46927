/** Injection tokens of the files capability (`Symbol.for` keeps them equal across module copies). */
export const FILES_TYPES = {
  /** Where file bytes live ({@link FileStorage}). */
  FileStorage: Symbol.for('wildo.FileStorage'),
  /** File records and bytes ({@link FileRecordsService}). */
  FileRecords: Symbol.for('wildo.FileRecords'),
  /** The check of `z_file` values on every record write ({@link FileReferenceCheck}). */
  FileReferenceCheck: Symbol.for('wildo.FileReferenceCheck'),
  /** Upload grants ({@link FileUploadGrantService}). */
  FileUploadGrants: Symbol.for('wildo.FileUploadGrants'),
  /** Redeems upload grants ({@link FileUploadRedemption}). */
  FileUploadRedemption: Symbol.for('wildo.FileUploadRedemption'),
} as const;
