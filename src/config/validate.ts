// Validation of the settings groups, each against its schema (config/schema/): one import for callers.
export { Problems, checkKnownKeys } from './schema/check.js';
export { validateAccount } from './schema/account.js';
export { validateClient } from './schema/client-rules.js';
