#!/usr/bin/env node
// The `wildo` command of the published package (the repository runs the sources through bin/wildo.mjs instead).
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
