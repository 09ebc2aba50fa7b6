// An administrator removes a user's authenticator app through the management API: its secret and
// recovery codes go with it, and the user is told by email (an app has no address of its own).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { OPEN, plainToken } from './support.js';
import { enrolTotp } from './totp-support.js';

describe('an administrator removes an authenticator app', () => {
  let m: MfaWard;
  let admin: ReturnType<typeof api>;
  before(async () => {
    m = await startMfaWard({ clients: [PUBLIC_CLIENT, CONSOLE_CLIENT], account: { ...OPEN, mfa_required: 'always' } });
    admin = api(m.ward, (await consoleToken(m.ward, 'manager')).token);
  });
  after(() => m.close());

  it('lists it, removes it with its secret and recovery codes, and tells the user', async () => {
    const { user, access } = await plainToken(m);
    await enrolTotp(m, access);
    assert.match((await m.smtp.next(user.email)).subject, /second factor was added/);
    const shown = await admin.get(`/api/v1/users/${user.id}`);
    assert.equal(shown.status, 200, JSON.stringify(shown.body));
    const app = (shown.body.mfa_credentials as Array<{ id: string; type: string; verified: boolean }>).find(
      (f) => f.type === 'totp',
    );
    assert.ok(app?.verified, JSON.stringify(shown.body.mfa_credentials));
    const removed = await admin.del(`/api/v1/users/${user.id}/mfa-credentials/${app.id}`);
    assert.equal(removed.status, 204, JSON.stringify(removed.body));
    const db = m.ward.registry.db.db;
    assert.equal(
      (await db.selectFrom('mfa_totp_secrets').selectAll().where('user_id', '=', user.id).execute()).length,
      0,
    );
    assert.equal(
      (await db.selectFrom('mfa_recovery_codes').selectAll().where('user_id', '=', user.id).execute()).length,
      0,
    );
    const notice = await m.smtp.next(user.email);
    assert.match(notice.subject, /second factor was removed/);
    assert.match(notice.text, /an authenticator app was removed/);
  });
});
