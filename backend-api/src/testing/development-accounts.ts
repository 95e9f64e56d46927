/** Who signs up, and how requests are sent (default: the global `fetch`). */
export interface DevelopmentSignUp {
  email: string;
  password: string;
  fetch?: typeof fetch;
}

/** A signed-in person: the access token the opened link answered with, and the user's id. */
export interface DevelopmentAccount {
  accessToken: string;
  userId: string;
}

async function json(response: Response, step: string): Promise<any> {
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw new Error(`${step} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

/**
 * Signs a person up on a development backend the way they would: the sign-up, the link in the mail the development
 * outbox kept (`GET /dev/outbox`), the link opened (`POST /auth/verify-email`), which creates the account and signs
 * it in. For tests and scripts against a backend on its embedded defaults; `apiUrl` ends in `/api/v1`.
 *
 * @example
 * const { accessToken } = await signUpThroughOutbox(`${url}/api/v1`, { email: 'ada@example.com', password: 'a long passphrase' });
 */
export async function signUpThroughOutbox(apiUrl: string, person: DevelopmentSignUp): Promise<DevelopmentAccount> {
  const send = person.fetch ?? fetch;
  const post = (path: string, body: unknown) =>
    send(`${apiUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  await json(await post('/auth/signup', { email: person.email, password: person.password }), 'sign-up');
  const outbox = await json(
    await send(`${apiUrl}/dev/outbox?to=${encodeURIComponent(person.email)}&limit=1`),
    'the development outbox',
  );
  const links: string[] = outbox.data?.[0]?.links ?? [];
  const token = links.map((link) => /\/verify-email#token=([\w-]+)/.exec(link)?.[1]).find(Boolean);
  if (!token) throw new Error(`no sign-up link in the latest mail to ${person.email}`);
  const opened = await json(await post('/auth/verify-email', { token }), 'opening the link');
  return { accessToken: opened.data.accessToken as string, userId: opened.data.user._id as string };
}
