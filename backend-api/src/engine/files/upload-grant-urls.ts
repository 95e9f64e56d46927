import type { RuntimeConfiguration } from '../config/index.js';
import { FrameworkError } from '../errors/index.js';
import { API_PREFIX } from '../urls/index.js';
import type { CompiledOperation } from '../resources/index.js';
import { UPLOAD_GRANT_HEADER } from './file-upload-grant.schema.js';

/** Where a grant's upload goes: the operation's own URL plus `/files/<field>/upload`. */
export interface UploadRoute {
  organizationId?: string;
  recordId?: string;
  fieldName: string;
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * The backend's public URL from the resolved configuration (`runtime.endPoints.main_backend_api.publicUrl`), never
 * from the request's Host header: refused when it is not configured.
 */
export function configuredPublicUrl(runtime: Partial<RuntimeConfiguration>): string {
  const url = runtime.runtime?.endPoints.main_backend_api?.publicUrl;
  if (!url) {
    throw new FrameworkError(
      'SERVICE_UNAVAILABLE',
      'Upload grants are unavailable: the backend has no public URL (runtime.endPoints.main_backend_api.publicUrl).',
    );
  }
  return withoutTrailingSlash(url);
}

/** The drop page's origin: the default frontend service's public URL, when one is declared. */
export function configuredFrontendUrl(runtime: Partial<RuntimeConfiguration>): string | undefined {
  const service = runtime.defaultFrontendService;
  if (!service || !runtime.frontendServices?.[service]) return undefined;
  const url = runtime.runtime?.endPoints[service]?.publicUrl;
  return url ? withoutTrailingSlash(url) : undefined;
}

/** The concrete upload URL of one field of one operation (`:organizationId` and `:id` filled in). */
export function uploadUrlOf(publicUrl: string, operation: CompiledOperation, route: UploadRoute): string {
  const path = (operation.http?.path ?? '')
    .replace(':organizationId', encodeURIComponent(route.organizationId ?? ''))
    .replace(':id', encodeURIComponent(route.recordId ?? ''));
  return `${publicUrl}${API_PREFIX}${path}/files/${encodeURIComponent(route.fieldName)}/upload`;
}

/** The status URL of a grant, named by its token's public handle (never the token). */
export function statusUrlOf(publicUrl: string, handle: string): string {
  return `${publicUrl}${API_PREFIX}/files/upload-grants/${handle}`;
}

/** The browser drop page: the grant travels in the fragment, which browsers never send to a server. */
export function uploadPageUrlOf(frontendUrl: string, token: string, statusUrl: string): string {
  return `${frontendUrl}/uploads#grant=${encodeURIComponent(token)}&status=${encodeURIComponent(statusUrl)}`;
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
