// A tiny MaxMind DB writer for tests (no writer is published on npm for Node): an IPv4 search tree
// with 24-bit records, a data section and the metadata, as the MaxMind DB File Format Specification 2.0
// describes (https://maxmind.github.io/MaxMind-DB/). It writes maps, arrays, UTF-8 strings and
// unsigned integers: what a GeoLite2-City record needs. test/self-service/session-places.test.ts reads
// its files back through the `maxmind` library Ward uses.

type Value = string | number | bigint | Value[] | { [k: string]: Value };

/** The control byte(s) of a field of `type` (1-15) and `size` bytes or entries. */
function control(type: number, size: number): Buffer {
  let sizeBits: number;
  let extra: Buffer;
  if (size < 29) [sizeBits, extra] = [size, Buffer.alloc(0)];
  else if (size < 29 + 256) [sizeBits, extra] = [29, Buffer.from([size - 29])];
  else if (size < 285 + 65536) {
    extra = Buffer.alloc(2);
    extra.writeUInt16BE(size - 285);
    sizeBits = 30;
  } else {
    extra = Buffer.alloc(3);
    extra.writeUIntBE(size - 65821, 0, 3);
    sizeBits = 31;
  }
  if (type <= 7) return Buffer.concat([Buffer.from([(type << 5) | sizeBits]), extra]);
  // Extended types: type 0 in the control byte, then the type minus 7.
  return Buffer.concat([Buffer.from([sizeBits, type - 7]), extra]);
}

function uint(type: number, v: bigint | number, max: number): Buffer {
  let n = BigInt(v);
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  if (bytes.length > max) throw new Error('integer too large');
  return Buffer.concat([control(type, bytes.length), Buffer.from(bytes)]);
}

/** One value in the data section's encoding (no pointers: every value is written in full). */
export function encode(v: Value): Buffer {
  if (typeof v === 'string') {
    const b = Buffer.from(v, 'utf8');
    return Buffer.concat([control(2, b.length), b]);
  }
  if (typeof v === 'bigint') return uint(9, v, 8);
  if (typeof v === 'number') {
    if (!Number.isInteger(v) || v < 0) throw new Error('only unsigned integers');
    return v < 2 ** 16 ? uint(5, v, 2) : uint(6, v, 4);
  }
  if (Array.isArray(v)) return Buffer.concat([control(11, v.length), ...v.map(encode)]);
  const entries = Object.entries(v);
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([k, x]) => [encode(k), encode(x)])]);
}

interface TreeNode {
  children: [TreeNode | number | null, TreeNode | number | null];
}

/** A MaxMind DB of IPv4 networks (`a.b.c.d/len`) to records. */
export function writeMmdb(networks: Record<string, Value>, databaseType = 'GeoLite2-City'): Buffer {
  const data: Buffer[] = [];
  let dataLength = 0;
  const root: TreeNode = { children: [null, null] };
  for (const [cidr, record] of Object.entries(networks)) {
    const [address, len] = cidr.split('/') as [string, string];
    const bits = address.split('.').reduce((a, o) => (a << 8) | Number(o), 0) >>> 0;
    const offset = dataLength;
    const encoded = encode(record);
    data.push(encoded);
    dataLength += encoded.length;
    let node = root;
    const depth = Number(len);
    for (let i = 0; i < depth; i++) {
      const bit = (bits >>> (31 - i)) & 1;
      if (i === depth - 1) {
        node.children[bit] = offset;
        break;
      }
      let next = node.children[bit];
      if (typeof next !== 'object' || next === null) {
        next = { children: [null, null] };
        node.children[bit] = next;
      }
      node = next;
    }
  }
  // Number the nodes breadth-first; a record is a node's number, N (no data), or N + 16 + a data offset.
  const nodes: TreeNode[] = [];
  const queue = [root];
  while (queue.length) {
    const n = queue.shift()!;
    nodes.push(n);
    for (const c of n.children) if (c && typeof c === 'object') queue.push(c);
  }
  const count = nodes.length;
  const index = new Map(nodes.map((n, i) => [n, i]));
  const recordOf = (c: TreeNode | number | null) =>
    c === null ? count : typeof c === 'number' ? count + 16 + c : index.get(c)!;
  const tree = Buffer.alloc(count * 6);
  nodes.forEach((n, i) => {
    tree.writeUIntBE(recordOf(n.children[0]), i * 6, 3);
    tree.writeUIntBE(recordOf(n.children[1]), i * 6 + 3, 3);
  });
  const metadata = encode({
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: 1_700_000_000n,
    database_type: databaseType,
    description: { en: 'Ward test database' },
    ip_version: 4,
    languages: ['de', 'en', 'es', 'fr'],
    node_count: count,
    record_size: 24,
  });
  return Buffer.concat([
    tree,
    Buffer.alloc(16),
    ...data,
    Buffer.from([0xab, 0xcd, 0xef]),
    Buffer.from('MaxMind.com', 'ascii'),
    metadata,
  ]);
}
