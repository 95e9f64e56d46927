import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';

/** The grant the stub accepts, its status handle and the upload path it is bound to. */
export const STUB_UPLOAD_GRANT = {
  token: 'wug_stub-grant-0123456789abcdefghijklmnopqrstuvwxyzABCD',
  handle: 'stub-handle-0123456789abcdefghijklmnopqrstuv',
  uploadPath: '/api/v1/organizations/org-1/case-files/files/attachments/upload',
  field: {
    name: 'attachments',
    allowedMimeTypes: ['text/plain', 'application/pdf'],
    maxSizeBytes: 2048,
    multiple: true,
  },
};

/** A file the stub received. */
export interface ReceivedUpload {
  grantHeader: string | undefined;
  name: string;
  type: string;
  text: string;
}

/** The running stub: its URL, what it received, and a gate that holds upload answers until opened. */
export interface UploadStub {
  url: string;
  statusUrl: string;
  uploads: ReceivedUpload[];
  /** Holds the next upload's answer until `release()` (so a test can see the progress state). */
  hold(): { release(): void; received: Promise<void> };
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A stand-in for the backend's upload-grant routes (status URL and upload URL, with the backend's answers and
 * single use), serving the built app from `staticDir` so the drop page runs as in production.
 */
export async function startUploadStub(staticDir: string): Promise<UploadStub> {
  const root = resolve(staticDir);
  const uploads: ReceivedUpload[] = [];
  let gate: { opened: Promise<void>; onReceived: () => void } | undefined;
  let url = '';
  const status = () => {
    const file = uploads[0];
    return {
      state: file ? 'redeemed' : 'pending',
      expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
      resourceType: 'case-files',
      operation: 'create',
      field: STUB_UPLOAD_GRANT.field,
      uploadUrl: `${url}${STUB_UPLOAD_GRANT.uploadPath}`,
      ...(file ? { file: { fileId: 'file_0001', name: file.name, mediaType: file.type, size: file.text.length } } : {}),
    };
  };

  async function api(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (req.method === 'GET' && path === `/api/v1/files/upload-grants/${STUB_UPLOAD_GRANT.handle}`)
      return sendJson(res, 200, status());
    if (req.method === 'POST' && path === STUB_UPLOAD_GRANT.uploadPath) {
      const grantHeader = req.headers['x-wildo-upload-grant'] as string | undefined;
      const body = await readBody(req);
      if (grantHeader !== STUB_UPLOAD_GRANT.token || uploads.length > 0) {
        const message = 'The upload grant is unknown, used or expired: request a new one.';
        return sendJson(res, 401, { error: { code: 'UNAUTHENTICATED', message, reason: 'credential_invalid' } });
      }
      const form = await new Response(new Uint8Array(body), {
        headers: { 'content-type': req.headers['content-type'] ?? '' },
      }).formData();
      const part = form.get('file');
      if (!(part instanceof Blob))
        return sendJson(res, 400, { error: { code: 'BAD_REQUEST', message: 'No file part.' } });
      const current = gate;
      gate = undefined;
      current?.onReceived();
      if (current) await current.opened;
      const name = (part as Blob & { name: string }).name;
      uploads.push({ grantHeader, name, type: part.type, text: await part.text() });
      return sendJson(res, 201, { state: 'redeemed', file: status().file });
    }
    return sendJson(res, 401, { error: { code: 'UNAUTHENTICATED', message: 'Authentication is required.' } });
  }

  async function serveApp(res: ServerResponse, path: string): Promise<void> {
    const file = resolve(join(root, decodeURIComponent(path)));
    const body = file.startsWith(root + sep) && extname(file) ? await readFile(file).catch(() => undefined) : undefined;
    res.writeHead(200, {
      'content-type': body ? (CONTENT_TYPES[extname(file)] ?? 'application/octet-stream') : CONTENT_TYPES['.html'],
    });
    res.end(body ?? (await readFile(join(root, 'index.html'))));
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://stub.invalid').pathname;
    const handled = path.startsWith('/api/') ? api(req, res, path) : serveApp(res, path);
    handled.catch(() => sendJson(res, 500, { error: { code: 'INTERNAL', message: 'An internal error occurred.' } }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    statusUrl: `${url}/api/v1/files/upload-grants/${STUB_UPLOAD_GRANT.handle}`,
    uploads,
    hold() {
      let release: () => void = () => undefined;
      let onReceived: () => void = () => undefined;
      const opened = new Promise<void>((done) => {
        release = done;
      });
      const received = new Promise<void>((done) => {
        onReceived = done;
      });
      gate = { opened, onReceived };
      return { release, received };
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
