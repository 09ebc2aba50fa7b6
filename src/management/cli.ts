import { randomBytes } from 'node:crypto';
import { hasSecret } from '../config/types.js';
import { Problems, validateClient } from '../config/validate.js';
import { WardError } from '../errors/ward-error.js';
import { SIGNING_ALGS, isSigningAlg } from '../keys/families.js';
import { GLOBAL_SET, type KeyStore } from '../keys/key-store.js';
import type { Actor } from '../audit/record.js';
import type { ClientService } from '../clients/service.js';
import type { KeyOperations } from '../keys/operations.js';
import type { Storage } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface ManagementCliDeps {
  clients: ClientService;
  keyOps: KeyOperations;
  keys: KeyStore;
  storage: Storage;
}

type Out = (line: string) => void;

function parse(args: string[]): { flags: Record<string, string | true>; positional: string[] } {
  const flags: Record<string, string | true> = {};
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    if (eq > 0) flags[a.slice(2, eq)] = a.slice(eq + 1);
    else if (args[i + 1] !== undefined && !args[i + 1]!.startsWith('--') && a !== '--sso')
      flags[a.slice(2)] = args[++i]!;
    else flags[a.slice(2)] = true;
  }
  return { flags, positional };
}

const list = (v: string | true | undefined): string[] =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
const str = (v: string | true | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

export const OPERATOR_USAGE = `  keys list [--client ID]     the global keys, or a client's own keys
  keys rotate [--alg RS256|ES256|EdDSA]
                               rotate a global pair (RSA unless told)
  clients list
  clients create --id ID [--type public|confidential|resource_server] [--name N] [--alg RS256|HS256|ES256|EdDSA]
                 [--callbacks URL,URL] [--origins ORIGIN,ORIGIN] [--sso]
  clients rotate-key ID        give the client its own pair (of its algorithm's family)
  clients sync-key ID          sync the client with the global pair
  clients revoke-key ID KID    revoke a key of the client`;

/** `ward keys ...` and `ward clients ...`: the management operations, on the configured database. */
export async function runOperatorCommand(
  r: ManagementCliDeps,
  args: string[],
  actorName: string,
  out: Out,
): Promise<number> {
  const actor: Actor = { type: 'cli', id: actorName, ip: null };
  const [group, action, ...rest] = args;
  const { flags, positional } = parse(rest);
  const [id, kid] = positional;
  try {
    if (group === 'keys' && action === 'list') {
      const keys =
        typeof flags.client === 'string'
          ? (await r.keyOps.clientKeys(flags.client)).keys
          : await r.keyOps.listSet(GLOBAL_SET);
      for (const k of keys)
        out(
          `${k.kid}  ${k.status.padEnd(8)}  ${k.key_set}  ${k.alg}  created ${k.created_at}${
            k.retired_at ? `  retired ${k.retired_at}` : ''
          }${k.revoked_at ? `  revoked ${k.revoked_at}` : ''}`,
        );
      return 0;
    }
    if (group === 'keys' && action === 'rotate') {
      const alg = flags.alg ?? 'RS256';
      if (!isSigningAlg(alg)) {
        out(`--alg must be one of ${SIGNING_ALGS.join(', ')}`);
        return 2;
      }
      out(`New global key ${(await r.keyOps.rotateGlobal(actor, alg)).kid}`);
      return 0;
    }
    if (group === 'clients' && action === 'list') {
      for (const c of await r.storage.clients.list())
        out(`${c.client_id}  ${c.type.padEnd(12)}  ${c.jwt_algorithm}  keys:${c.key_mode}  ${c.name}`);
      return 0;
    }
    if (group === 'clients' && action === 'create') {
      const type = flags.type === 'confidential' || flags.type === 'resource_server' ? flags.type : 'public';
      const secret = hasSecret(type) ? randomBytes(32).toString('base64url') : undefined;
      const p = new Problems();
      const def = validateClient(p, 'client', {
        client_id: flags.id,
        type,
        ...(str(flags.name) ? { name: str(flags.name) } : {}),
        ...(str(flags.alg) ? { jwt_algorithm: str(flags.alg) } : {}),
        allowed_callback_urls: list(flags.callbacks),
        allowed_origins: list(flags.origins),
        sso: flags.sso === true,
        ...(secret ? { client_secret: secret } : {}),
      });
      if (!def) {
        out(`Invalid client:\n  - ${p.list.join('\n  - ')}`);
        return 2;
      }
      if (await r.clients.find(def.client_id)) {
        out(`A client ${def.client_id} already exists`);
        return 2;
      }
      await r.clients.upsert(def, 'api');
      await r.storage.versions.bump('clients');
      // ES256 / EdDSA: the global pair of that family, published before the client's first token.
      if (isSigningAlg(def.jwt_algorithm)) await r.keys.ensureGlobalKeys([def.jwt_algorithm]);
      out(
        `Created ${def.type} client ${def.client_id}${
          secret ? `\nclient_secret ${secret}   (shown once: store it now)` : ''
        }`,
      );
      return 0;
    }
    if (group === 'clients' && action === 'rotate-key' && id) {
      out(`New key ${(await r.keyOps.rotateClient(id, actor)).kid} for ${id} (client-specific)`);
      return 0;
    }
    if (group === 'clients' && action === 'sync-key' && id) {
      await r.keyOps.syncClient(id, actor);
      out(`${id} now signs with the global pair`);
      return 0;
    }
    if (group === 'clients' && action === 'revoke-key' && id && kid) {
      await r.keyOps.revokeClientKey(id, kid, actor);
      out(`Revoked ${kid} of ${id}`);
      return 0;
    }
  } catch (e) {
    if (e instanceof WardError) {
      out(e.description);
      return 1;
    }
    throw e;
  }
  out(`Unknown command.\n${OPERATOR_USAGE}`);
  return 2;
}
