#!/usr/bin/env node
// The `appset` command. The TypeScript sources are compiled to dist/ by `npm ci` (the prepare script).
import { main } from '../dist/src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
