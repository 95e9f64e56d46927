// The guide's administration-client rotation (guide: "Rotate with fresh proof and an explicit cutoff"): its
// JavaScript verbatim, with types added to the parameters and the parsed JSON (the only changes): a step-up
// proof from `/auth/reauth`, then `PUT` on the key's ROTATE URL with `x-reauth-token` and the cutoff.

/** A JSON answer's fields as the client reads them (`{ data }` envelope or bare). */
type JsonFields = Record<string, string | undefined>;

/** What the administration client passes in. */
export interface RotateIntegrationKeyArguments {
  reauthUrl: string;
  rotateUrl: string;
  sessionToken: string;
  password: string;
  cutoff: Date;
}

export async function rotateIntegrationKey({
  reauthUrl,
  rotateUrl,
  sessionToken,
  password,
  cutoff,
}: RotateIntegrationKeyArguments) {
  const json = async (response: Response) => {
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const body = (await response.json()) as JsonFields & { data?: JsonFields };
    return body.data ?? body;
  };
  const headers = { authorization: `Bearer ${sessionToken}`, 'content-type': 'application/json' };
  const proof = await json(
    await fetch(reauthUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify({ method: 'PASSWORD', password }),
    }),
  );
  if (!proof.reAuthToken) throw new Error('Reauthentication returned no operation proof');

  const replacement = await json(
    await fetch(rotateUrl, {
      method: 'PUT',
      headers: { ...headers, 'x-reauth-token': proof.reAuthToken },
      body: JSON.stringify({ oldKeyInvalidationDate: cutoff.toISOString() }),
    }),
  );
  if (!replacement.plainKey) {
    throw new Error('Rotation returned no replacement secret');
  }

  // Hand this directly to the integration's credential store, not a log.
  return {
    plainKey: replacement.plainKey,
    oldKeyId: replacement.oldKeyId,
    oldKeyInvalidationDate: replacement.oldKeyInvalidationDate,
  };
}
