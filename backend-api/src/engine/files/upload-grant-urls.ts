import { FrameworkError } from '../errors/index.js';
import type { PublicUrls } from '../public-urls/index.js';
import type { CompiledOperation } from '../resources/index.js';
import { API_PREFIX } from '../urls/index.js';
import { UPLOAD_GRANT_HEADER } from './file-upload-grant.schema.js';

/** Where a grant's upload goes: the operation's own URL plus `/files/<field>/upload`. */
export interface UploadRoute {
  organizationId?: string;
  recordId?: string;
  fieldName: string;
}

/**
 * The public URLs grants are written with, or a refusal when the backend has none configured: a grant is never
 * made up from a request's Host header.
 */
export function requireConfiguredUrls(urls: PublicUrls | undefined): PublicUrls {
  if (!urls) {
    throw new FrameworkError(
      'SERVICE_UNAVAILABLE',
      'Upload grants are unavailable: the backend has no public URL (set WILDO_PUBLIC_URL, or runtime.endPoints.main_backend_api.publicUrl).',
    );
  }
  return urls;
}

/** The concrete upload URL of one field of one operation (`:organizationId` and `:id` filled in). */
export function uploadUrlOf(urls: PublicUrls, operation: CompiledOperation, route: UploadRoute): string {
  const path = (operation.http?.path ?? '')
    .replace(':organizationId', encodeURIComponent(route.organizationId ?? ''))
    .replace(':id', encodeURIComponent(route.recordId ?? ''));
  return urls.backendUrl(`${API_PREFIX}${path}/files/${encodeURIComponent(route.fieldName)}/upload`);
}

/** The status URL of a grant, named by its token's public handle (never the token). */
export function statusUrlOf(urls: PublicUrls, handle: string): string {
  return urls.backendUrl(`${API_PREFIX}/files/upload-grants/${handle}`);
}

/** The browser drop page: the grant travels in the fragment, which browsers never send to a server. */
export function uploadPageUrlOf(urls: PublicUrls, token: string, statusUrl: string): string {
  return urls.pageUrl(`/uploads#grant=${encodeURIComponent(token)}&status=${encodeURIComponent(statusUrl)}`);
}

const SIMPLE_NAME = /^[A-Za-z0-9._ -]{1,100}$/;
const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** Upload commands for a POSIX shell (curl) and PowerShell (curl.exe); the file name is a placeholder unless plain. */
export function uploadCommandsOf(
  uploadUrl: string,
  token: string,
  declared: { name?: string; mimeType?: string },
): { curl: string; powershell: string } {
  const file = declared.name && SIMPLE_NAME.test(declared.name) ? declared.name : 'FILE';
  const type = declared.mimeType ? `;type=${declared.mimeType}` : '';
  const header = `${UPLOAD_GRANT_HEADER}: ${token}`;
  return {
    curl: `curl -fsS -X POST -H ${shellQuote(header)} -F ${shellQuote(`file=@./${file}${type}`)} ${shellQuote(uploadUrl)}`,
    powershell: `curl.exe -fsS -X POST -H "${header}" -F "file=@${file}${type}" "${uploadUrl}"`,
  };
}
