// The clients Ward makes for itself and relies on: the admin console (`ward-console`, created at each
// start by src/console/client.ts). The management API neither changes, deletes nor gives a new secret
// to one of them, and no custom token signs in to one (docs/security.md, "Management API: no caller
// grants more than it holds").
export const CONSOLE_CLIENT_ID = 'ward-console';

const SYSTEM_CLIENT_IDS: ReadonlySet<string> = new Set([CONSOLE_CLIENT_ID]);

export const isSystemClient = (clientId: string): boolean => SYSTEM_CLIENT_IDS.has(clientId);
