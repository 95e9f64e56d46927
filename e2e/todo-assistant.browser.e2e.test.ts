import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, resolve, sep } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedAppBuild } from '../frontend/browser/build-app.js';

// The todo assistant page in Debian's headless Chromium: the built app against a stub that streams real
// server-sent events in several chunks, pauses on an approval and continues after the decision.

const CHROMIUM = '/usr/bin/chromium';
const ORG = 'org-e2e';
const EXECUTION_ID = '0b7f6c1e-5d2a-4e8f-9c31-7a2b4d6e8f10';
const TOKEN = 'e2e-access-token';
const USAGE = { inputTokens: 12, outputTokens: 7, totalTokens: 19 };
const APPROVAL = {
  approvalId: 'appr-e2e',
  executionId: EXECUTION_ID,
  functionRef: 'todos.update',
  toolCallId: 'call-e2e',
  arguments: { id: 'todo-7', title: 'Weekly shop' },
  allowArgumentModification: true,
  createdAt: '2030-11-05T10:00:00.000Z',
  expiresAt: '2030-11-05T10:15:00.000Z',
  approvalToken: 'approval-token-e2e',
};

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

function frame(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Writes `text` in small pieces with pauses, so event boundaries fall inside chunks. */
async function streamInPieces(res: ServerResponse, text: string): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  for (let i = 0; i < text.length; i += 23) {
    res.write(text.slice(i, i + 23));
    await pause(5);
  }
  res.end();
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

describe.skipIf(!existsSync(CHROMIUM))('todo assistant in Chromium (built app, streaming stub)', () => {
  let outDir: string;
  let server: Server;
  let baseUrl: string;
  const received: Array<{ route: string; authorization: string | undefined; body: unknown }> = [];

  beforeAll(async () => {
    outDir = await sharedAppBuild();
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://stub.invalid').pathname;
      const route = `${req.method ?? 'GET'} ${path}`;
      const handle = async () => {
        if (path.startsWith('/api/')) {
          const body = req.method === 'POST' ? await readBody(req) : undefined;
          received.push({ route, authorization: req.headers.authorization, body });
          if (req.headers.authorization !== `Bearer ${TOKEN}`)
            return sendJson(res, 401, { error: { code: 'UNAUTHENTICATED', message: 'Sign in.' } });
          if (route === 'GET /api/v1/flows-actors/approvals') return sendJson(res, 200, { data: [] });
          if (route === `POST /api/v1/organizations/${ORG}/flows-actors/systems/todo-assistant/turns`) {
            return streamInPieces(
              res,
              frame('execution', {
                executionId: EXECUTION_ID,
                systemRef: 'todo-assistant',
                agentRef: 'todo-assistant.chat.agent',
              }) +
                frame('text_delta', { text: 'I can rename it ' }) +
                frame('text_delta', { text: 'once you approve.' }) +
                frame('tool_call', {
                  toolCallId: APPROVAL.toolCallId,
                  functionRef: APPROVAL.functionRef,
                  arguments: APPROVAL.arguments,
                }) +
                frame('approval_required', { approval: APPROVAL }) +
                frame('turn_completed', { status: 'awaiting_approval', usage: USAGE }),
            );
          }
          if (route === `POST /api/v1/flows-actors/approvals/${APPROVAL.approvalId}/decision`) {
            const args =
              (body as { modifiedArguments?: Record<string, unknown> }).modifiedArguments ?? APPROVAL.arguments;
            return streamInPieces(
              res,
              frame('approval_decided', {
                approvalId: APPROVAL.approvalId,
                toolCallId: APPROVAL.toolCallId,
                decision: 'approve',
                arguments: args,
              }) +
                frame('tool_result', {
                  toolCallId: APPROVAL.toolCallId,
                  functionRef: APPROVAL.functionRef,
                  outcome: { ok: true, result: { _id: 'todo-7', ...args } },
                }) +
                frame('text_delta', { text: `Renamed to ${String(args.title)}.` }) +
                frame('turn_completed', { status: 'completed', usage: USAGE }),
            );
          }
          return sendJson(res, 404, { error: { code: 'NOT_FOUND', message: 'No such route.' } });
        }
        const file = resolve(join(outDir, decodeURIComponent(path)));
        const asset =
          file.startsWith(outDir + sep) && extname(file) ? await readFile(file).catch(() => undefined) : undefined;
        res.writeHead(200, {
          'content-type': asset
            ? (CONTENT_TYPES[extname(file)] ?? 'application/octet-stream')
            : CONTENT_TYPES['.html']!,
        });
        res.end(asset ?? (await readFile(join(outDir, 'index.html'))));
      };
      handle().catch(() => sendJson(res, 500, { error: { code: 'INTERNAL', message: 'An internal error occurred.' } }));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it('streams a reply, pauses on an approval, and continues after Approve with edited arguments', async () => {
    const userDataDir = await mkdtemp(join(tmpdir(), 'wildo-chromium-'));
    let context: BrowserContext | undefined;
    try {
      context = await chromium.launchPersistentContext(userDataDir, {
        executablePath: CHROMIUM,
        headless: true,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--no-first-run',
          '--disable-component-update',
          '--disable-sync',
        ],
        viewport: { width: 1280, height: 800 },
      });
      context.setDefaultTimeout(15_000);
      const page = context.pages()[0] ?? (await context.newPage());
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      // Signed in as the login page leaves it: the access token in this tab's sessionStorage.
      await page.addInitScript(`window.sessionStorage.setItem('wildo.accessToken', ${JSON.stringify(TOKEN)});`);

      await page.goto(`${baseUrl}/organizations/${ORG}/assistant`);
      await page.getByRole('heading', { level: 1, name: 'Todo assistant' }).waitFor();
      await page.getByText('Nothing is waiting for your approval.').waitFor();

      await page.getByLabel('Message').fill('Rename my groceries todo to Weekly shop');
      await page.getByRole('button', { name: 'Send' }).click();

      const log = page.getByRole('log', { name: 'Conversation' });
      await log.getByText('I can rename it once you approve.').waitFor();
      const card = page.locator('section.approval', {
        has: page.getByRole('heading', { level: 2, name: 'Approval needed' }),
      });
      await card.waitFor();
      expect(await card.locator('time').getAttribute('datetime')).toBe(APPROVAL.expiresAt);

      await card.getByLabel('Title').fill('Big weekly shop');
      await card.getByRole('button', { name: 'Approve' }).click();

      await log.getByText('Renamed to Big weekly shop.').waitFor();
      await page.getByText('The assistant finished replying.').waitFor();
      expect(await page.getByRole('heading', { name: 'Approval needed' }).count()).toBe(0);
      expect(await page.getByRole('alert').count()).toBe(0);

      const turn = received.find((r) => r.route.endsWith('/turns'));
      expect(turn?.body).toEqual({ message: 'Rename my groceries todo to Weekly shop' });
      const decision = received.find((r) => r.route.endsWith('/decision'));
      expect(decision).toMatchObject({ authorization: `Bearer ${TOKEN}` });
      expect(decision?.body).toEqual({
        approvalToken: APPROVAL.approvalToken,
        decision: 'approve',
        modifiedArguments: { id: 'todo-7', title: 'Big weekly shop' },
      });
      expect(pageErrors).toEqual([]);
    } finally {
      await context?.close();
      await rm(userDataDir, { recursive: true, force: true });
    }
  });
});
