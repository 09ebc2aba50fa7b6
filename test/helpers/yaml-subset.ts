// A strict reader of the small YAML subset compose.yaml is written in (no YAML library is among Ward's
// packages): block mappings and block sequences by indentation (spaces), plain, single- and
// double-quoted scalars, JSON-style flow sequences, and comments. Anything else (anchors, aliases,
// block scalars, flow mappings, tabs, a duplicate key, a bad indentation) throws, so a file it reads
// is one it reads right.

export type YamlValue = string | null | YamlValue[] | { [key: string]: YamlValue };

interface Line {
  no: number;
  indent: number;
  text: string;
}

function stripComment(raw: string): string {
  let quote: string | null = null;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || raw[i - 1] === ' ')) return raw.slice(0, i);
  }
  return raw;
}

function scalar(text: string, no: number): YamlValue {
  const fail = (why: string) => {
    throw new Error(`line ${no}: ${why}: ${text}`);
  };
  if (text.startsWith('"')) return JSON.parse(text) as string;
  if (text.startsWith("'")) {
    if (!/^'([^']|'')*'$/.test(text)) fail('bad single-quoted scalar');
    return text.slice(1, -1).replaceAll("''", "'");
  }
  if (text.startsWith('[')) {
    const list = JSON.parse(text) as unknown;
    if (!Array.isArray(list) || list.some((v) => typeof v !== 'string')) fail('only lists of strings');
    return list as string[];
  }
  if (/^[&*!|>{@`%]/.test(text)) fail('not in the subset');
  return text;
}

export function parseYamlSubset(source: string): YamlValue {
  const lines: Line[] = [];
  source.split('\n').forEach((raw, i) => {
    if (raw.includes('\t')) throw new Error(`line ${i + 1}: a tab`);
    const text = stripComment(raw).trimEnd();
    if (text.trim() === '') return;
    lines.push({ no: i + 1, indent: text.length - text.trimStart().length, text: text.trimStart() });
  });
  let at = 0;

  function block(indent: number): YamlValue {
    const first = lines[at];
    if (first.indent !== indent) throw new Error(`line ${first.no}: indentation ${first.indent}, expected ${indent}`);
    if (first.text === '-' || first.text.startsWith('- ')) {
      const list: YamlValue[] = [];
      while (at < lines.length && lines[at].indent === indent) {
        const { text, no } = lines[at];
        if (!text.startsWith('- ')) throw new Error(`line ${no}: a list item expected`);
        if (/^[^"'[]*:( |$)/.test(text.slice(2)))
          throw new Error(`line ${no}: mappings in lists are not in the subset`);
        list.push(scalar(text.slice(2).trim(), no));
        at++;
      }
      return list;
    }
    const map: { [key: string]: YamlValue } = {};
    while (at < lines.length && lines[at].indent === indent) {
      const { text, no } = lines[at];
      const m = /^([A-Za-z0-9_.-]+):(?: (.*))?$/.exec(text);
      if (!m) throw new Error(`line ${no}: a "key: value" expected: ${text}`);
      if (Object.hasOwn(map, m[1])) throw new Error(`line ${no}: duplicate key ${m[1]}`);
      at++;
      if (m[2] !== undefined && m[2].trim() !== '') map[m[1]] = scalar(m[2].trim(), no);
      else if (at < lines.length && lines[at].indent > indent) map[m[1]] = block(lines[at].indent);
      else map[m[1]] = null;
    }
    return map;
  }

  if (!lines.length) return null;
  const doc = block(0);
  if (at < lines.length) throw new Error(`line ${lines[at].no}: indentation does not match any block`);
  return doc;
}
