import { runBenchServerChild } from './bench-server-child.js';
import { createBareSdkMcpApp } from './mcp-bare-sdk-app.js';
import type { McpBenchServerReady } from './mcp-bench-protocol.js';
import { seedMcpTodo } from './mcp-bench-seed.js';

const MCP_PATH = '/api/v1/mcp';

/** The server side of `bench:mcp`: the framework's MCP endpoint and the bare SDK MCP server. */
void runBenchServerChild<McpBenchServerReady>({
  bareApp: (database) => createBareSdkMcpApp(database, MCP_PATH),
  ready: async (frameworkUrl, bareUrl) => {
    const seeded = await seedMcpTodo(frameworkUrl);
    return {
      type: 'ready',
      frameworkUrl: `${frameworkUrl}${MCP_PATH}`,
      bareUrl: `${bareUrl}${MCP_PATH}`,
      todoId: seeded.todoId,
      organizationId: seeded.organizationId,
      credentials: { token: seeded.token, apiKey: seeded.apiKey },
    };
  },
});
