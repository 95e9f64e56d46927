#!/usr/bin/env node
// The `wildo` command. tsx's ESM loader compiles the TypeScript sources on the fly, so the CLI
// runs from src/ without a build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
