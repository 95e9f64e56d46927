import type { FlowsActors_PromptSpec } from '@wildo/shared-lib';

/** The system prompt of an agent: its role, persona and instructions, in a stable layout. */
export function renderSystemPrompt(spec: FlowsActors_PromptSpec): string {
  const lines = [spec.role];
  if (spec.persona) lines.push('', spec.persona);
  if (spec.instructions.length > 0)
    lines.push('', 'Instructions:', ...spec.instructions.map((instruction) => `- ${instruction}`));
  return lines.join('\n');
}
