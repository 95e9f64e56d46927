import type { FlowsActorsViewDefinition } from '@wildo/shared-lib';

// Mirrors TODO_ASSISTANT_VIEW of @wildo/shared-lib/app (that entry imports the zod schemas, too heavy for the bundle);
// todo-assistant.view.test.ts checks the two agree.

/** The assistant's actor system. */
export const TODO_ASSISTANT_SYSTEM_REF = 'todo-assistant';
/** The view ref. */
export const TODO_ASSISTANT_VIEW_REF = 'todo-assistant-view';

/** The view's definition as the host uses it (an organization-scoped, addressable conversation). */
export const TODO_ASSISTANT_VIEW_ROUTE: Pick<
  FlowsActorsViewDefinition,
  'ref' | 'systemRef' | 'isAddressable' | 'layoutPreset'
> = {
  ref: TODO_ASSISTANT_VIEW_REF,
  systemRef: TODO_ASSISTANT_SYSTEM_REF,
  isAddressable: true,
  layoutPreset: 'Default',
};

/** The path of the view in an organization. */
export function todoAssistantPath(organizationId: string): string {
  return `/organizations/${encodeURIComponent(organizationId)}/assistant`;
}

/** The organization id of a view path, or `null` when `pathname` is not one. */
export function matchTodoAssistantPath(pathname: string): string | null {
  const match = /^\/organizations\/([^/]+)\/assistant$/.exec(pathname);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}
