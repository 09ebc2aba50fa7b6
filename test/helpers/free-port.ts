// A free loopback port for a server a test starts a moment later. It is drawn below the kernel's
// ephemeral range: the local ports of outgoing connections and the ports of port-0 listeners come
// from that range, so a port below it stays free between this check and the listen that follows
// (a port from the range could be taken by any connection the parallel test file opens meanwhile).
import { readFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

const LOWEST = 10_000;

function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > LOWEST + 1000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

export async function freePort(): Promise<number> {
  const high = ephemeralLow();
  for (let i = 0; i < 100; i++) {
    const port = randomInt(LOWEST, high);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free loopback port between ${LOWEST} and ${high}`);
}
