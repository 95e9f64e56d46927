// Applications for `wildo check` tests: the same module twice, once with an approval-gated write tool over an
// operation its resource declares, once over one it does not (the mistake start-up and `wildo check` refuse).
import {
  CORE_ORG_ROLES,
  CoreResourceOperation,
  ResourceOperationVariantType,
  ResourcePrimaryScope,
  defineResource,
  type AnyResourceDeclaration,
} from '@wildo/shared-lib';
import { z } from 'zod';
import { resourceWriteTool } from '../engine/agents/tools/resource-tools.js';
import {
  defineBackendApplication,
  type BackendApplicationDefinition,
} from '../engine/bootstrap/backend-domain-module.js';

const variants = [
  { variantType: ResourceOperationVariantType.API_CALL, isDefault: true, roles: [CORE_ORG_ROLES.ORG_MEMBER] },
];

const schema = z.object({ title: z.string().min(1).max(200) });
const base = { type: 'notes', displayName: 'Notes', primaryScope: ResourcePrimaryScope.ORGANIZATIONS, schema } as const;

function notesApplication(name: string, notes: AnyResourceDeclaration): BackendApplicationDefinition {
  const renameNote = resourceWriteTool('notes', CoreResourceOperation.UPDATE, {
    requiresHumanApproval: true,
    inputSchema: z.object({ id: z.string(), title: z.string().min(1).max(200) }),
  });
  return defineBackendApplication({
    name,
    modules: [{ name: 'notes', resources: [notes], flowsActors: { functionTools: [renameNote] } }],
  });
}

/** Notes that can be read and updated; the approval-gated rename tool is accepted. */
export const notesWithUpdate = notesApplication(
  'notes',
  defineResource({ ...base, operationsConfiguration: { read: { variants }, update: { variants } } }),
);

/** Notes that can only be read; the approval-gated rename tool is refused. */
export const notesWithoutUpdate = notesApplication(
  'notes',
  defineResource({ ...base, operationsConfiguration: { read: { variants } } }),
);
