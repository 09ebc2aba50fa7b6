// The guarded outbound client (src/lib/outbound/) as the tests use it outside a Ward: their simulators
// listen on 127.0.0.1, so loopback is allowed, explicitly, as WARD_OUTBOUND_ALLOW would.
import { createOutbound, type Outbound } from '../../src/lib/outbound/client.js';
import { LOOPBACK_CIDRS, parseCidrList } from '../../src/lib/outbound/ranges.js';

/** What test/helpers/ward.ts gives each Ward as WARD_OUTBOUND_ALLOW. */
export const TEST_OUTBOUND_ALLOW = LOOPBACK_CIDRS;

export function loopbackOutbound(): Outbound {
  return createOutbound({
    allow: parseCidrList(TEST_OUTBOUND_ALLOW, (entry) => {
      throw new Error(`not a CIDR: ${entry}`);
    }),
  });
}
