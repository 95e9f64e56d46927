import type { ResourceDescription } from '@wildo/shared-lib';
import { readAccessToken } from '../session/access-token.store';
import { useSignedInData, type SignedInData } from '../ui/use-signed-in-data';
import { loadResourceDescriptions } from './resource-descriptions.client';

// The navigation and the page below it read the same descriptions: one request per organization and session.
const cache = new Map<string, Promise<ResourceDescription[]>>();

function cachedDescriptions(organizationId: string, accessToken: string, signal: AbortSignal) {
  const key = `${organizationId}\n${accessToken}`;
  let pending = cache.get(key);
  if (!pending) {
    // Not tied to one caller's signal: a second reader may still be waiting when the first unmounts.
    pending = loadResourceDescriptions(organizationId, { accessToken });
    pending.catch(() => cache.delete(key));
    cache.clear();
    cache.set(key, pending);
  }
  return new Promise<ResourceDescription[]>((resolve, reject) => {
    signal.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')), { once: true });
    pending.then(resolve, reject);
  });
}

/** The organization's declared resources as the signed-in person sees them (loaded once per organization and session). */
export function useResourceDescriptions(organizationId: string): {
  state: SignedInData<ResourceDescription[]>;
  reload: () => void;
} {
  return useSignedInData(`${organizationId}\n${readAccessToken() ?? ''}`, (accessToken, signal) =>
    cachedDescriptions(organizationId, accessToken, signal),
  );
}

/** Whether a description gets a page in the organization's navigation: declared by the application, and listable. */
export function hasPage(description: ResourceDescription): boolean {
  return (
    !description.builtIn &&
    description.operations.some((operation) => operation.operation === 'list' && operation.allowed)
  );
}
