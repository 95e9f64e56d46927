import {
  client,
  methods,
  PROTOCOL_VERSION,
  type AnyMessage,
  type ClientConnection,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type InitializeRequest,
  type InitializeResponse,
  type PromptResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionConfigOption,
  type SessionNotification,
  type Stream,
} from '@agentclientprotocol/sdk';
import type { CodingFiles } from './coding-files.js';
import type { CodingTerminals } from './coding-terminals.js';

/** What the client answers the agent with: the run's callbacks. */
export interface AcpClientCallbacks {
  files: CodingFiles;
  terminals: CodingTerminals;
  /** Client methods offered at initialization (from the ceiling). */
  offers: { writeTextFile: boolean; terminal: boolean };
  permission(params: RequestPermissionRequest): Promise<RequestPermissionResponse>;
  elicitation(params: CreateElicitationRequest): Promise<CreateElicitationResponse>;
  /** Every `session/update`, in the order the agent sent it (before any later response settles). */
  update(notification: SessionNotification): void;
}

/** How the session of a run was opened. */
export interface OpenedSession {
  sessionId: string;
  mode: 'new' | 'load' | 'resume';
  configOptions: readonly SessionConfigOption[];
}

/** The framework's client name and version, as it introduces itself to agents. */
export const CLIENT_INFO = { name: 'wildo', version: '0.1.0' } as const;

function isSessionUpdate(message: AnyMessage): message is AnyMessage & { params: SessionNotification } {
  if (!('method' in message) || message.method !== methods.client.session.update || 'id' in message) return false;
  const params = message.params as { sessionId?: unknown; update?: { sessionUpdate?: unknown } } | undefined;
  return typeof params?.sessionId === 'string' && typeof params.update?.sessionUpdate === 'string';
}

/**
 * The client side of one ACP connection, on the official SDK's stable entry: the run's callbacks registered as
 * the client's handlers, and the agent methods the runner calls. Session updates are taken from the incoming
 * stream in arrival order (the SDK dispatches notifications asynchronously, so a turn's last updates could
 * otherwise be handled after its `session/prompt` response).
 */
export class AcpAgentConnection {
  private constructor(private readonly connection: ClientConnection) {}

  /** Connects to the agent's stream with the run's callbacks. */
  static open(stream: Stream, callbacks: AcpClientCallbacks): AcpAgentConnection {
    const ordered: Stream = {
      writable: stream.writable,
      readable: stream.readable.pipeThrough(
        new TransformStream<AnyMessage, AnyMessage>({
          transform(message, controller) {
            if (isSessionUpdate(message)) callbacks.update(message.params);
            controller.enqueue(message);
          },
        }),
      ),
    };
    const app = client({ name: CLIENT_INFO.name })
      .onRequest(methods.client.session.requestPermission, ({ params }) => callbacks.permission(params))
      .onRequest(methods.client.fs.readTextFile, ({ params }) => callbacks.files.read(params))
      .onRequest(methods.client.fs.writeTextFile, ({ params }) => callbacks.files.write(params))
      .onRequest(methods.client.terminal.create, ({ params }) => callbacks.terminals.create(params))
      .onRequest(methods.client.terminal.output, ({ params }) => callbacks.terminals.output(params.terminalId))
      .onRequest(methods.client.terminal.waitForExit, ({ params }) =>
        callbacks.terminals.waitForExit(params.terminalId),
      )
      .onRequest(methods.client.terminal.kill, ({ params }) => callbacks.terminals.kill(params.terminalId))
      .onRequest(methods.client.terminal.release, ({ params }) => callbacks.terminals.release(params.terminalId))
      .onRequest(methods.client.elicitation.create, ({ params }) => callbacks.elicitation(params))
      // Handled in arrival order by the stream tap above; registered so the SDK accepts the notification.
      .onNotification(methods.client.session.update, () => undefined);
    return new AcpAgentConnection(app.connect(ordered));
  }

  /** Resolves when the connection closes (the agent exited or the run closed it). */
  get closed(): Promise<void> {
    return this.connection.closed;
  }

  /** Negotiates the protocol version and capabilities; an agent answering another version is refused. */
  async initialize(offers: AcpClientCallbacks['offers']): Promise<InitializeResponse> {
    const request: InitializeRequest = {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: {
        fs: { readTextFile: true, writeTextFile: offers.writeTextFile },
        terminal: offers.terminal,
        elicitation: { form: {} },
      },
      clientInfo: { ...CLIENT_INFO },
    };
    const response = await this.connection.agent.request(methods.agent.initialize, request);
    if (response.protocolVersion !== PROTOCOL_VERSION) {
      throw new AcpProtocolError(
        `the agent speaks Agent Client Protocol version ${String(response.protocolVersion)}; this runner speaks ${PROTOCOL_VERSION}`,
      );
    }
    return response;
  }

  /** Opens a session: a new one, or the stored one through `session/resume` or `session/load` (whichever the agent declares). */
  async openSession(cwd: string, existing?: { sessionId: string; via: 'resume' | 'load' }): Promise<OpenedSession> {
    const agent = this.connection.agent;
    if (!existing) {
      const created = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
      return { sessionId: created.sessionId, mode: 'new', configOptions: created.configOptions ?? [] };
    }
    const { sessionId, via } = existing;
    const reopened =
      via === 'resume'
        ? await agent.request(methods.agent.session.resume, { sessionId, cwd, mcpServers: [] })
        : await agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    return { sessionId, mode: via, configOptions: reopened?.configOptions ?? [] };
  }

  /** Selects `model` through the session's model option, when the agent offers one listing it; false otherwise. */
  async selectModel(session: OpenedSession, model: string): Promise<boolean> {
    const option = session.configOptions.find((o) => o.category === 'model' && o.type === 'select');
    if (!option || option.type !== 'select') return false;
    const values = option.options.flatMap((entry) => ('options' in entry ? entry.options : [entry]));
    if (!values.some((value) => value.value === model)) return false;
    if (option.currentValue !== model) {
      await this.connection.agent.request(methods.agent.session.setConfigOption, {
        sessionId: session.sessionId,
        configId: option.id,
        value: model,
      });
    }
    return true;
  }

  /** Sends one prompt turn; resolves with the agent's stop reason when the turn ends. */
  prompt(sessionId: string, text: string): Promise<PromptResponse> {
    return this.connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text }],
    });
  }

  /** The protocol's cancel notification for the session's running turn. */
  async cancel(sessionId: string): Promise<void> {
    await this.connection.agent.notify(methods.agent.session.cancel, { sessionId }).catch(() => undefined);
  }

  /** Closes the connection (pending requests are rejected). */
  close(): void {
    this.connection.close();
  }
}

/** The agent broke the protocol contract (a version this runner does not speak, a malformed answer). */
export class AcpProtocolError extends Error {
  override readonly name = 'AcpProtocolError';
}
