#!/usr/bin/env node
// The installed `mentor-admin` command: runs the TypeScript CLI through tsx, so it works right after `npm install`.
import { register } from 'tsx/esm/api';

register();
await import('../src/main/cli/main.ts');
