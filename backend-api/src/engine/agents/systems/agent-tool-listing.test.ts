import { CoreResourceOperation, LLM_Model_Applicability } from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applicationOf, flowsModule, functionTool, languageAgent } from './agents-registry.fixtures.js';
import { listAgentTools, modelToolName, modelToolNames } from './agent-tool-listing.js';
import { resourceReadTool, resourceWriteTool } from '../tools/resource-tools.js';

describe('the names a model sees for tools', () => {
  it('replaces every character outside [A-Za-z0-9_-] with "_", and numbers a clash as a turn would', () => {
    expect(modelToolName('resource.todos.update')).toBe('resource_todos_update');
    expect(
      modelToolNames([functionTool('notes.archive'), functionTool('notes_archive'), functionTool('notes:archive')]),
    ).toEqual(['notes_archive', 'notes_archive_2', 'notes_archive_3']);
  });
});

describe('listAgentTools', () => {
  it("lists each agent's tools in its declared order, with the operation, the gate and the arguments", () => {
    const rename = resourceWriteTool('notes', CoreResourceOperation.UPDATE, {
      requiresHumanApproval: true,
      inputSchema: z.object({ id: z.string(), title: z.string() }),
    });
    const agent = languageAgent({
      ref: 'notes-chat',
      modelApplicability: LLM_Model_Applicability.CONVERSATION,
      capabilities: {
        tools: { functionRefs: [rename.functionRef, 'resource.notes.read', 'unregistered'], mcpRefs: ['docs.site'] },
      },
    });
    const listed = listAgentTools(
      applicationOf(flowsModule('notes', { agents: [agent], functionTools: [resourceReadTool('notes'), rename] })),
    );
    expect(listed.map(({ inputSchema: _schema, ...rest }) => rest)).toEqual([
      {
        agent: 'notes-chat',
        module: 'notes',
        tool: 'resource_notes_update',
        functionRef: 'resource.notes.update',
        operation: 'notes.update',
        requiresHumanApproval: true,
        readOnly: false,
      },
      {
        agent: 'notes-chat',
        module: 'notes',
        tool: 'resource_notes_read',
        functionRef: 'resource.notes.read',
        operation: 'notes.read',
        requiresHumanApproval: false,
        readOnly: true,
      },
      {
        agent: 'notes-chat',
        module: 'notes',
        tool: 'mcp_docs_site_*',
        functionRef: 'mcp:docs.site/*',
        requiresHumanApproval: false,
        readOnly: false,
      },
    ]);
    expect(listed[0]?.inputSchema).toMatchObject({
      type: 'object',
      required: ['id', 'title'],
      additionalProperties: false,
    });
  });
});
