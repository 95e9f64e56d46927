#!/usr/bin/env node
// The `wildo` command. tsx's ESM loader compiles the TypeScript sources on the fly, so the CLI
// runs from src/ without a build step. The package's tsconfig (decorators) applies from any directory.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// Commands that load the engine first import its ES-module packages with Node's own loader: through tsx's hooks
// (a separate thread on Node 20) each of their ~450 files costs twice as much, and a module already loaded is
// not loaded again. A package missing here is simply loaded later, through tsx.
const ENGINE_COMMANDS = new Set(['check', 'exposure']);
const ENGINE_ES_MODULES = [
  'zod',
  'reflect-metadata',
  'inversify',
  'jose',
  '@modelcontextprotocol/sdk/server/mcp.js',
  '@modelcontextprotocol/sdk/server/streamableHttp.js',
  '@modelcontextprotocol/sdk/client/index.js',
  '@modelcontextprotocol/sdk/client/streamableHttp.js',
  '@electric-sql/pglite',
  '@electric-sql/pglite-pgvector',
];
if (ENGINE_COMMANDS.has(process.argv[2]))
  await Promise.all(ENGINE_ES_MODULES.map((name) => import(name).catch(() => undefined)));

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
