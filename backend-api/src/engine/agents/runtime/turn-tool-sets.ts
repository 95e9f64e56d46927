import type { AgentsRegistry, SystemAdmission } from '../systems/index.js';
import type { ExternalMcpConnector, ExternalMcpSession } from '../external-mcp/index.js';
import { buildTurnTools, type TurnToolSet } from '../tools/index.js';

/**
 * The tools of a turn: exactly the function tools its agent declares, and the tools of the external MCP servers it
 * names (opened per turn); every call gated when the system's access entry demands approval.
 */
export class TurnToolSets {
  /** Registered tools never change while the process runs: their contracts and JSON Schemas are built once. */
  private readonly functionToolSets = new Map<string, TurnToolSet>();

  constructor(
    private readonly registry: Pick<AgentsRegistry, 'tool'>,
    private readonly external: ExternalMcpConnector,
  ) {}

  /** Opens the agent's external MCP servers for one turn (none when it names none). */
  async openSessions(admission: SystemAdmission, signal: AbortSignal | undefined): Promise<ExternalMcpSession[]> {
    const refs = admission.agent.declaration.capabilities?.tools?.mcpRefs ?? [];
    return refs.length === 0 ? [] : this.external.open(refs, signal);
  }

  /** The turn's tool set over the sessions it opened. */
  toolsFor(admission: SystemAdmission, sessions: readonly ExternalMcpSession[]): TurnToolSet {
    const refs = admission.agent.declaration.capabilities?.tools?.functionRefs ?? [];
    const functionTools = () => refs.flatMap((ref) => this.registry.tool(ref) ?? []);
    if (sessions.length === 0) {
      const key = `${admission.agent.declaration.ref}\u0000${admission.entry.requiresApproval}`;
      let cached = this.functionToolSets.get(key);
      if (!cached) {
        cached = buildTurnTools({
          functionTools: functionTools(),
          externalSessions: [],
          gatedServers: new Set(),
          gateAll: admission.entry.requiresApproval,
        });
        this.functionToolSets.set(key, cached);
      }
      return cached;
    }
    return buildTurnTools({
      functionTools: functionTools(),
      externalSessions: sessions,
      gatedServers: new Set(
        sessions.filter((s) => this.external.requiresApproval(s.serverRef)).map((s) => s.serverRef),
      ),
      gateAll: admission.entry.requiresApproval,
    });
  }
}
