// Writes docs/configuration-reference.md from the settings schemas (npm run docs:settings); a test
// (test/config/settings-docs.test.ts) fails when the committed page differs from what this writes.
import { writeFileSync } from 'node:fs';
import { settingsReference } from '../src/config/schema/docs.js';

const path = new URL('../docs/configuration-reference.md', import.meta.url);
writeFileSync(path, settingsReference());
process.stdout.write(`wrote ${path.pathname}\n`);
