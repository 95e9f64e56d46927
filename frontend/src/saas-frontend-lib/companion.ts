// `@wildo-ai/saas-frontend-lib/companion`: the view contract and scope enum (guide: "Import the view contract and
// scope enum from @wildo-ai/saas-frontend-lib/companion"), and the launcher entries a host derives from an
// application's `flowsActorsViews`.
import type { FlowsActorsViewDefinition as SharedViewDefinition } from '@wildo/shared-lib';

/**
 * Where a frontend view is mounted. Mirrors `FrontendView_ScopeMode` of `@wildo/shared-lib` (whose package root
 * is too heavy for the bundle); flows-actors.guide.test.tsx checks the two have the same values.
 */
export enum FrontendView_ScopeMode {
  APPLICATION = 'APPLICATION',
}

/** A browser view onto an actor system: the shared wire contract, with this entry's scope enum. */
export type FlowsActorsViewDefinition = Omit<SharedViewDefinition, 'scope'> & { scope: FrontendView_ScopeMode };

/** One entry of the host's assistant launcher, derived from a view declaration. */
export interface FlowsActorsLauncherEntry {
  viewRef: string;
  systemRef: string;
  label: string;
  /** The view's address in an organization, or `null` for a view that is only embedded. */
  path: (organizationId: string) => string | null;
}

/** A readable label for a view ref: `todo-assistant-view` → `Todo assistant`. */
export function viewLabel(ref: string): string {
  const words = ref
    .replace(/-view$/, '')
    .split('-')
    .filter(Boolean);
  const text = words.join(' ');
  return text ? `${text[0]?.toUpperCase()}${text.slice(1)}` : ref;
}

/** The address of an addressable organization view: `/organizations/:id/views/:viewRef`. */
export function viewPath(organizationId: string, viewRef: string): string {
  return `/organizations/${encodeURIComponent(organizationId)}/views/${encodeURIComponent(viewRef)}`;
}

/**
 * Turns an application's `flowsActorsViews` into launcher entries: one per view, in declaration order;
 * addressable views get a path. Declaring a view is all an application does to add an assistant to the launcher.
 *
 * @example
 * launcherEntries([{ ref: 'todo-assistant-view', systemRef: 'todo-assistant', isAddressable: true, ... }]);
 * // [{ viewRef: 'todo-assistant-view', systemRef: 'todo-assistant', label: 'Todo assistant', path: ... }]
 */
export function launcherEntries(
  views: readonly FlowsActorsViewDefinition[],
  labels: Readonly<Record<string, string>> = {},
): FlowsActorsLauncherEntry[] {
  return views.map((view) => ({
    viewRef: view.ref,
    systemRef: view.systemRef,
    label: labels[view.ref] ?? viewLabel(view.ref),
    path: (organizationId: string) => (view.isAddressable ? viewPath(organizationId, view.ref) : null),
  }));
}
