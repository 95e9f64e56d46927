import { createBareTodoApp } from './bare-app.js';
import type { BenchServerMessage } from './bench-protocol.js';
import { seedTodo } from './bench-seed.js';
import { runBenchServerChild } from './bench-server-child.js';

/** The server side of `bench:rest`: the framework and a bare Express handler doing the same SQL read. */
void runBenchServerChild<BenchServerMessage>({
  bareApp: (database) => createBareTodoApp(database),
  ready: async (frameworkUrl, bareUrl) => ({ type: 'ready', frameworkUrl, bareUrl, ...(await seedTodo(frameworkUrl)) }),
});
