import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestBackend, useTestDatabase, type TestBackend } from '../../testing/test-backend.js';
import { SAAS_SERVICE_TYPES as T } from '../container/saas-service-types.tokens.js';
// The mail names as an application imports them.
import { SmtpMailSender, type MailSender } from '@wildo/backend-api';

const database = useTestDatabase();

const welcome = (to: string) => ({
  to,
  subject: 'Finish creating your account',
  text: `Open this link to finish: http://localhost:4241/verify-email#token=abc\n\nIgnore this mail if you did not ask.`,
  kind: 'sign-up',
});

describe('the development outbox', () => {
  let t: TestBackend;
  beforeAll(async () => {
    t = await createTestBackend(database());
  });
  afterAll(() => t.close());

  it('keeps the mails a development backend sends, newest first, with their links, for one address or all', async () => {
    const sender = t.backend.container.get<MailSender>(T.MailSender);
    expect(sender.kind).toBe('outbox');
    await sender.send(welcome('Ada@Example.test'));
    await sender.send({ ...welcome('grace@example.test'), subject: 'You are invited', kind: 'invitation' });
    const mine = await t.api.get('/api/v1/dev/outbox').query({ to: 'ada@example.test' });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toEqual([
      {
        id: expect.any(String),
        to: 'Ada@Example.test',
        subject: 'Finish creating your account',
        text: expect.stringContaining('Open this link'),
        kind: 'sign-up',
        sentAt: expect.any(String),
        links: ['http://localhost:4241/verify-email#token=abc'],
      },
    ]);
    const all = await t.api.get('/api/v1/dev/outbox');
    expect(all.body.data.map((mail: { subject: string }) => mail.subject).slice(0, 2)).toEqual([
      'You are invited',
      'Finish creating your account',
    ]);
    expect((await t.api.get('/api/v1/dev/outbox').query({ limit: 'lots' })).status).toBe(400);
  });

  it('is not served by a production backend, whose mails stay undelivered in its table', async () => {
    await using production = await createTestBackend(database(), { production: true });
    const sender = production.backend.container.get<MailSender>(T.MailSender);
    await sender.send(welcome('hidden@example.test'));
    expect((await production.api.get('/api/v1/dev/outbox')).status).toBe(404);
    // Control: the development backend on the same database shows it.
    const shown = await t.api.get('/api/v1/dev/outbox').query({ to: 'hidden@example.test' });
    expect(shown.body.data).toHaveLength(1);
  });
});

describe('SMTP delivery', () => {
  const received: { from: string; to: string[]; user: string | undefined; raw: string }[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    // Connections a pooled sender keeps are cut at close instead of waited for.
    closeTimeout: 100,
    authOptional: false,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === 'mailer' && auth.password === 'secret') callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  let port: number;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(resolve)));

  it('hands each mail to the configured server, authenticated, from the configured sender', async () => {
    const sender = new SmtpMailSender(`smtp://mailer:secret@127.0.0.1:${port}`, 'Todos <no-reply@todos.example.test>');
    try {
      await sender.send(welcome('ada@example.test'));
    } finally {
      await sender.close();
    }
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      from: 'no-reply@todos.example.test',
      to: ['ada@example.test'],
      user: 'mailer',
    });
    expect(received[0]?.raw).toContain('Subject: Finish creating your account');
    expect(received[0]?.raw).toContain('verify-email#token=abc');
  });

  it('rejects a send the server refuses, so the caller can tell the person', async () => {
    const sender = new SmtpMailSender(`smtp://mailer:wrong@127.0.0.1:${port}`, 'Todos <no-reply@todos.example.test>');
    try {
      await expect(sender.send(welcome('ada@example.test'))).rejects.toThrow();
    } finally {
      await sender.close();
    }
  });
});
