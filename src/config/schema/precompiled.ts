// The settings' validators compiled ahead, by schema fingerprint (settings-ajv.ts). Empty here: in
// src/ (the tests, tsx) check.ts compiles each schema at its first use. `npm run build` puts in this
// module's place the one ahead.ts writes (scripts/build.mjs), so a start compiles none.
import type { ValidateFunction } from 'ajv';

export const PRECOMPILED: ReadonlyMap<string, ValidateFunction> = new Map();
