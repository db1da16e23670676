#!/usr/bin/env node
// `hla` command: runs the TypeScript CLI through tsx (the project runs its sources directly).
import { register } from 'tsx/esm/api';

register();
const { runCli, processIo } = await import('../src/cli/main.ts');
process.exitCode = await runCli(process.argv.slice(2), processIo());
