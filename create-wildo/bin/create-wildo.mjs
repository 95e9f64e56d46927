#!/usr/bin/env node
// `create-wildo` in this repository: runs the TypeScript sources through tsx (the published package runs dist/bin.js).
import { register } from 'tsx/esm/api';

register();
await import('../src/bin.ts');
