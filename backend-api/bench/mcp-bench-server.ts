import { runBenchServerChild } from './bench-server-child.js';
import { createBareSdkMcpApp } from './mcp-bare-sdk-app.js';
import type { McpBenchServerReady } from './mcp-bench-protocol.js';
import { seedMcpTodo } from './mcp-bench-seed.js';

const MCP_PATH = '/api/v1/mcp';
const BARE_JSON_PATH = '/bare/tools-call';

/** The server side of `bench:mcp`: the framework's MCP endpoint, the bare SDK MCP server and the plain Express JSON handler. */
void runBenchServerChild<McpBenchServerReady>({
  bareApp: (database) => createBareSdkMcpApp(database, MCP_PATH, BARE_JSON_PATH),
  ready: async (frameworkUrl, bareUrl) => {
    const seeded = await seedMcpTodo(frameworkUrl);
    return {
      type: 'ready',
      frameworkUrl: `${frameworkUrl}${MCP_PATH}`,
      bareUrl: `${bareUrl}${MCP_PATH}`,
      bareJsonUrl: `${bareUrl}${BARE_JSON_PATH}`,
      todoId: seeded.todoId,
      organizationId: seeded.organizationId,
      credentials: { token: seeded.token, apiKey: seeded.apiKey },
    };
  },
});
