#!/usr/bin/env node
// The `wildo` command. tsx's ESM loader compiles the TypeScript sources on the fly, so the CLI
// runs from src/ without a build step. The package's tsconfig (decorators) applies from any directory.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
