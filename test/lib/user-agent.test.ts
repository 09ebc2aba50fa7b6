// The small User-Agent reader of the list of sessions (src/lib/user-agent.ts), on headers real browsers send.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseUserAgent } from '../../src/lib/user-agent.js';

const CASES: Array<[string, string | null, string | null]> = [
  ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox 133', 'Linux'],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Chrome 131',
    'Windows',
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70',
    'Edge 131',
    'Windows',
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15',
    'Safari 17',
    'macOS',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
    'Safari 17',
    'iOS',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
    'Chrome 131',
    'iOS',
  ],
  [
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
    'Samsung Internet 26',
    'Android',
  ],
  [
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0',
    'Opera 115',
    'ChromeOS',
  ],
  ['curl/8.5.0', null, null],
  ['', null, null],
];

describe('parseUserAgent', () => {
  for (const [ua, browser, os] of CASES)
    it(`reads ${browser ?? 'nothing'} on ${os ?? 'nothing'} from ${ua.slice(0, 40) || '(empty)'}`, () => {
      assert.deepEqual(parseUserAgent(ua), { browser, os });
    });

  it('reads nothing from a missing header and bounds what it reads', () => {
    assert.deepEqual(parseUserAgent(undefined), { browser: null, os: null });
    assert.deepEqual(parseUserAgent(`${'x'.repeat(500)} Firefox/120.0`), { browser: null, os: null });
  });
});
