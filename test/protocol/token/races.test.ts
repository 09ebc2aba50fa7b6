// Races, on SQLite and (with WARD_TEST_DATABASE_URL) PostgreSQL: CC-01 (one code redeemed 20 times
// in parallel: exactly one 200, the rest invalid_grant, and the winner's tokens revoked since reuse
// was seen) and CC-04 (one refresh token used 20 times in parallel: at most one 200, then the whole
// family is revoked). Each race runs 3 rounds; ROUNDS=100 in the environment makes it a soak test.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from 'undici';
import { engines } from '../../helpers/databases.js';
import { PUBLIC_CLIENT, codeFor } from '../../helpers/oauth.js';
import { startWard, type TestWard } from '../../helpers/ward.js';
import { NO_LIMITS, expectError, offlineTokens, redeemRaw, refresh, userinfoStatus } from './support.js';

const PARALLEL = 20;

/** Splits parallel answers into the 200 bodies and asserts every other one is 400 invalid_grant. */
async function outcomes(responses: Response[]): Promise<Array<Record<string, string>>> {
  const wins: Array<Record<string, string>> = [];
  for (const res of responses) {
    if (res.status === 200) wins.push((await res.json()) as Record<string, string>);
    else await expectError(res, 400, 'invalid_grant');
  }
  return wins;
}

for (const engine of engines()) {
  describe(`races on ${engine}`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startWard({ engine, account: NO_LIMITS, clients: [PUBLIC_CLIENT] });
    });
    after(() => ward.close());

    it('CC-01: one code redeemed 20 times at once gives exactly one 200, whose tokens are then revoked', async () => {
      for (let round = 0; round < Number(process.env.ROUNDS ?? 3); round++) {
        const { code, verifier } = await codeFor(ward, { scope: 'openid profile email offline_access' });
        const wins = await outcomes(
          await Promise.all(Array.from({ length: PARALLEL }, () => redeemRaw(ward, code, verifier))),
        );
        assert.equal(wins.length, 1, `round ${round}: ${wins.length} successes`);
        const [win] = wins;
        assert.ok(win!.access_token && win!.refresh_token);
        assert.equal(
          await userinfoStatus(ward, win!.access_token!),
          401,
          'reuse was detected: the access token is revoked',
        );
        await expectError(await refresh(ward, win!.refresh_token!), 400, 'invalid_grant');
      }
    });

    it('CC-04: one refresh token used 20 times at once gives at most one 200, then the family is dead', async () => {
      for (let round = 0; round < 3; round++) {
        const { tokens } = await offlineTokens(ward);
        const wins = await outcomes(
          await Promise.all(Array.from({ length: PARALLEL }, () => refresh(ward, tokens.refresh_token!))),
        );
        assert.ok(wins.length <= 1, `round ${round}: ${wins.length} successes`);
        for (const w of wins) {
          assert.equal(await userinfoStatus(ward, w.access_token!), 401);
          await expectError(await refresh(ward, w.refresh_token!), 400, 'invalid_grant');
        }
        assert.equal(await userinfoStatus(ward, tokens.access_token!), 401);
        await expectError(await refresh(ward, tokens.refresh_token!), 400, 'invalid_grant');
      }
    });
  });
}
