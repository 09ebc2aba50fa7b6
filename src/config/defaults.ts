// The account defaults are read from the settings schema (config/schema/account.ts).
export { DEFAULT_ACCOUNT } from './schema/account.js';
export { DEFAULT_SCOPE } from './schema/client.js';

export const DEFAULT_PORT = 8443;
