/** What the drop page reads from its URL fragment: the grant and where its status is. */
export interface DropPageLink {
  grant: string;
  statusUrl: string;
}

/** The constraint of the field a grant uploads to. */
export interface UploadField {
  name: string;
  allowedMimeTypes: string[];
  maxSizeBytes: number;
}

/** A grant's status as its status URL answers it. */
export interface UploadGrantStatus {
  state: 'pending' | 'expired' | 'redeemed' | 'failed';
  expiresAt: string;
  uploadUrl: string;
  field: UploadField;
  file?: { fileId: string; name: string; mediaType: string; size: number };
}

/** The upload header the backend expects (the grant travels in it, never in a URL it logs). */
export const UPLOAD_GRANT_HEADER = 'x-wildo-upload-grant';

/** Reads `#grant=...&status=...`; null when either is missing or the status URL is not http(s). */
export function parseDropPageLink(hash: string): DropPageLink | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const grant = params.get('grant');
  const status = params.get('status');
  if (!grant || !status) return null;
  try {
    const url = new URL(status);
    return url.protocol === 'https:' || url.protocol === 'http:' ? { grant, statusUrl: url.href } : null;
  } catch {
    return null;
  }
}

/** `12.3 KB`-style sizes for people. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** Why a file does not fit the field (checked again by the backend), or null when it fits. */
export function fileProblem(file: { type: string; size: number }, field: UploadField): string | null {
  const type = file.type.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!field.allowedMimeTypes.includes(type)) return `This field accepts ${field.allowedMimeTypes.join(', ')}.`;
  if (file.size > field.maxSizeBytes) return `The file is larger than ${formatBytes(field.maxSizeBytes)}.`;
  return null;
}

/** Reads a grant's status. */
export async function readUploadStatus(statusUrl: string, signal?: AbortSignal): Promise<UploadGrantStatus> {
  const response = await fetch(statusUrl, { signal: signal ?? null, cache: 'no-store' });
  if (!response.ok) throw new Error(failureMessage(response.status, await response.text()));
  return (await response.json()) as UploadGrantStatus;
}

/** The backend's client-safe message of a failed answer, or a generic one. */
export function failureMessage(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') return parsed.error.message;
  } catch {
    // Not JSON: fall through to the generic message.
  }
  return status === 404 ? 'This upload link is not valid.' : `The upload failed (HTTP ${status}).`;
}

/**
 * Sends one file as multipart `file` with the grant header, reporting progress (XMLHttpRequest: fetch reports
 * no upload progress). Resolves on a 2xx answer, rejects with the backend's message otherwise.
 */
export function sendUpload(
  uploadUrl: string,
  grant: string,
  file: File,
  onProgress: (loaded: number, total: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', uploadUrl);
    request.setRequestHeader(UPLOAD_GRANT_HEADER, grant);
    request.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    request.onerror = () => reject(new Error('The upload could not reach the server.'));
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) return resolve();
      reject(new Error(failureMessage(request.status, request.responseText)));
    };
    const form = new FormData();
    form.append('file', file, file.name);
    request.send(form);
  });
}
