import { z } from 'zod';
import type { TenantScope } from '../persistence/index.js';
import type { FileUploader } from './file-records.service.js';

/** Lifetime of an upload grant when the caller names none (minutes). */
export const FILE_UPLOAD_GRANT_DEFAULT_MINUTES = 15;
/** The longest lifetime a caller may ask for (minutes). */
export const FILE_UPLOAD_GRANT_MAX_MINUTES = 60;
/** The request header that carries an upload grant to its upload URL. */
export const UPLOAD_GRANT_HEADER = 'x-wildo-upload-grant';

/**
 * A file name as a person would see it: no path, no control characters (C0, DEL, C1) and no bidirectional
 * embedding, override or isolate (U+202A-202E, U+2066-2069), which make `invoice_gpj.exe` read as `invoice_exe.jpg`.
 */
export const FileNameSchema = z
  .string()
  .min(1)
  .max(255)
  .refine(
    (name) => !/[/\\]/.test(name) && !hasUnsafeNameCharacter(name),
    'a file name without a path, control characters or direction overrides',
  )
  .refine((name) => name !== '.' && name !== '..', 'a file name, not "." or ".."');

/** Whether text holds a control character (C0, DEL, C1) or a bidirectional control (never part of a name a person typed). */
export function hasUnsafeNameCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
    if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return true;
  }
  return false;
}

/** What a caller may say about the file before the upload, so an impossible one is refused before a grant exists. */
export const DeclaredFileSchema = z.strictObject({
  name: FileNameSchema.optional(),
  mimeType: z
    .string()
    .max(255)
    .regex(/^[\w.+-]+\/[\w.+-]+$/, 'a MIME type such as application/pdf')
    .optional(),
  size: z.number().int().min(0).optional(),
});
/** The declared facts of a file (all optional). */
export type DeclaredFile = z.infer<typeof DeclaredFileSchema>;

/** The body of `POST .../files/<field>/grant`. */
export const MintUploadGrantBodySchema = DeclaredFileSchema.extend({
  expiresInMinutes: z.number().int().min(1).max(FILE_UPLOAD_GRANT_MAX_MINUTES).optional(),
});
/** The accepted body of a mint request. */
export type MintUploadGrantBody = z.infer<typeof MintUploadGrantBodySchema>;

/** The operation a grant's file is for: creating a record (collection URL) or updating one (record URL). */
export type UploadGrantOperation = 'create' | 'update';

/**
 * What an upload grant stands for, kept server-side in its consumable token: the field, operation, minter and the
 * concrete upload URL it may be redeemed at (an update grant's token also names its target row), plus, once
 * redeemed, the file it produced.
 */
export interface FileUploadGrantMetadata {
  fieldName: string;
  operation: UploadGrantOperation;
  minter: FileUploader;
  uploadUrl: string;
  /** Whose file it becomes (the minter's tenant for the resource). */
  tenant: TenantScope;
  declared?: DeclaredFile;
  /** Set when the upload stored a file. */
  producedFileId?: string;
  /** Set when the grant was used but the file could not be stored (a new grant is needed). */
  failed?: boolean;
}

/** The constraint of the field a grant uploads to, as clients see it. */
export interface UploadFieldDescription {
  name: string;
  allowedMimeTypes: readonly string[];
  maxSizeBytes: number;
  multiple: boolean;
}

/** The answer to a mint request (REST and MCP). */
export interface UploadGrantResponse {
  resourceType: string;
  operation: UploadGrantOperation;
  field: UploadFieldDescription;
  uploadUrl: string;
  uploadHeader: { name: string; value: string };
  /** A POSIX shell command that performs the upload (curl). */
  uploadCommand: string;
  uploadCommands: { curl: string; powershell: string };
  statusUrl: string;
  /** The browser drop page, when the application declares a frontend service with a public URL. */
  uploadPageUrl?: string;
  expiresAt: string;
  expiresInMinutes: number;
}

/** A file as the status and upload answers describe it. */
export interface UploadedFileDescription {
  fileId: string;
  name: string;
  mediaType: string;
  size: number;
  sha256: string;
}

/** Where a grant is: waiting for its upload, expired unused, redeemed (a file exists) or used without a file. */
export type UploadGrantState = 'pending' | 'expired' | 'redeemed' | 'failed';

/** The answer of a grant's status URL. */
export interface UploadGrantStatus {
  state: UploadGrantState;
  expiresAt: string;
  resourceType: string;
  operation: UploadGrantOperation;
  field: UploadFieldDescription;
  uploadUrl: string;
  file?: UploadedFileDescription;
}
