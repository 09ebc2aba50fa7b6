// Consents to accept again (src/accounts/consent-renewal.ts) are looked for at every sign-in: the
// user's stored consents are read only when an active definition has a version that asks again
// (`require_reconsent`); otherwise nothing can be owed, and the sign-in makes no read for it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createConsentRenewal } from '../../src/accounts/consent-renewal.js';
import type { ConsentDefinitionSetting } from '../../src/config/types.js';
import { connect, migrate } from '../../src/storage/connect.js';
import { createStorage, type Storage } from '../../src/storage/storage.js';

const text = { language: 'en', title: 'Terms', description: 'The terms' };
const definition = (status: 'active' | 'archived', reconsent: boolean): ConsentDefinitionSetting =>
  ({
    key: 'terms',
    consent_type: 'opt-in',
    required: true,
    status,
    versions: [
      { version_id: 1, texts: [text] },
      { version_id: 2, require_reconsent: reconsent, texts: [text] },
    ],
  }) as unknown as ConsentDefinitionSetting;

describe('consents owed at sign-in', () => {
  it("reads the user's consents only when a definition may ask again", async () => {
    const d = connect({ sqlitePath: ':memory:', postgresUrl: null });
    await migrate(d);
    const real = createStorage(d);
    let reads = 0;
    const storage: Storage = {
      ...real,
      userConsents: {
        ...real.userConsents,
        ofUser: (userId: string) => {
          reads++;
          return real.userConsents.ofUser(userId);
        },
      },
    };
    let consents: ConsentDefinitionSetting[] = [];
    const renewal = createConsentRenewal({
      storage,
      account: () => ({ consents }),
      changes: { store: async () => undefined, sendConfirmations: async () => undefined } as never,
    });
    try {
      for (const defs of [[], [definition('active', false)], [definition('archived', true)]]) {
        consents = defs;
        assert.deepEqual(await renewal.owed('user-1'), []);
      }
      assert.equal(reads, 0, 'nothing could be owed: no read');
      consents = [definition('active', true)];
      assert.deepEqual(
        (await renewal.owed('user-1')).map((c) => c.key),
        ['terms'],
        'a required consent never given, whose version 2 asks again',
      );
      assert.equal(reads, 1);
    } finally {
      await d.close();
    }
  });
});
