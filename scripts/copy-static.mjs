// Part of `npm run build`: tsc compiles only TypeScript, so the console's static files (browser
// scripts, stylesheet) are copied from src/console/static to <out>/console/static, where the compiled
// dist/console/routes.js reads them. Usage: node scripts/copy-static.mjs [outDir, default dist]
import { cpSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(root, 'src', 'console', 'static');
const to = join(resolve(root, process.argv[2] ?? 'dist'), 'console', 'static');
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
console.log(`copied ${from} -> ${to}`);
