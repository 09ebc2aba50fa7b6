// A pino logger with Ward's production redaction that writes its JSON lines to an array, so a test
// can read what would have reached the log.
import pino, { type Logger } from 'pino';
import { REDACT } from '../../src/registry.js';

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export function memoryLogger(): { log: Logger; lines: string[]; parsed: () => LogLine[] } {
  const lines: string[] = [];
  const log = pino(
    { level: 'trace', redact: { paths: REDACT, censor: '[redacted]' } },
    { write: (s: string) => void lines.push(s) },
  );
  return { log, lines, parsed: () => lines.map((l) => JSON.parse(l) as LogLine) };
}
