// The users of an import, one at a time, from a stream: NDJSON read line by line (node:readline),
// or a JSON array read element by element (stream-json). Nothing holds the whole body: a million
// lines take the memory of one.
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { streamArray } from 'stream-json/streamers/stream-array.js';

export type ImportFormat = 'ndjson' | 'json';

/** Longest line read (a user is a few hundred bytes; this bounds what one line may hold). */
export const MAX_LINE_CHARS = 64 * 1024;

/** One user of the source, by its line number (NDJSON) or its position from 1 (JSON array). */
export type SourceLine =
  | { line: number; value: unknown }
  | { line: number; refused: 'invalid_json' | 'line_too_long'; message: string };

/** The source is not JSON at all (a JSON array that breaks off): the import stops there. */
export class SourceBroken extends Error {}

async function* ndjson(input: Readable): AsyncGenerator<SourceLine> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  for await (const raw of lines) {
    n++;
    const text = n === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (!text.trim()) continue;
    if (text.length > MAX_LINE_CHARS) {
      yield { line: n, refused: 'line_too_long', message: `is longer than ${MAX_LINE_CHARS} characters` };
      continue;
    }
    try {
      yield { line: n, value: JSON.parse(text) };
    } catch {
      yield { line: n, refused: 'invalid_json', message: 'is not valid JSON' };
    }
  }
}

async function* jsonArray(input: Readable): AsyncGenerator<SourceLine> {
  const items = input.pipe(streamArray.withParserAsStream());
  input.once('error', (e) => items.destroy(e));
  try {
    for await (const item of items as AsyncIterable<{ key: number; value: unknown }>)
      yield { line: item.key + 1, value: item.value };
  } catch (e) {
    throw new SourceBroken(`The body is not a JSON array of users: ${(e as Error).message.slice(0, 200)}`);
  }
}

export function sourceLines(input: Readable, format: ImportFormat): AsyncGenerator<SourceLine> {
  return format === 'ndjson' ? ndjson(input) : jsonArray(input);
}
