#!/usr/bin/env node
// `npm create wildo@latest <dir>` runs this.
import { runScaffolder } from './cli.js';

process.exitCode = await runScaffolder(
  process.argv.slice(2),
  (line) => process.stdout.write(`${line}\n`),
  (line) => process.stderr.write(`${line}\n`),
);
