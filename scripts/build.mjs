// Part of `npm run build` (after tsc has checked the types): Ward as one module, <out>/cli.js, with the
// console's static files beside it in <out>/static. esbuild bundles src/ and the packages named in
// INLINE; every other package stays an import of node_modules (native addons, packages that find
// their files at run time, those loaded only when needed).
//
// Why one module: on Node 20, loading src/ as ~550 files and typebox and kysely as ~600 more cost
// about half of a start, and the CommonJS packages every start loads (Fastify, Ajv, pino and theirs)
// a tenth of a restart more (docs/performance.md, "Start-up"). The plain build (`--files`) writes one
// file per module, as tsc would, for comparing the two.
// Usage: node scripts/build.mjs [outDir, default dist] [--src dir] [--files]
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** esbuild's output settings for Ward's code (also the benchmark's small builds, bench/ward.ts). */
export const FOR_NODE = { format: 'esm', platform: 'node', target: 'node20', logLevel: 'error' };

/** The ESM packages bundled, many small modules: alone, the bundle before the CommonJS ones joined. */
export const INLINE_ESM = ['typebox', 'kysely', 'jose', 'libphonenumber-js'];
/** Packages bundled into cli.js: loaded at every start, no file read beside their own code. */
export const INLINE = [
  ...INLINE_ESM,
  // CommonJS, with their own dependencies (avvio, find-my-way, fast-json-stringify, ...). Left out:
  // @fastify/ajv-compiler, which lazy_validation loads on the first validated request (its Ajv then
  // comes from node_modules), and pino's transports, which Ward does not use (they find files by path).
  'fastify',
  '@fastify/cookie',
  '@fastify/formbody',
  'ajv',
  'pino',
  'prom-client',
  'otpauth',
  'bcryptjs',
  'stream-json',
];

/**
 * A bundled CommonJS module's `require` of a Node built-in or of a package left out: esbuild's ESM
 * output has none of its own, so the bundle makes one for its place.
 */
const REQUIRE_BANNER =
  "import { createRequire as wardCreateRequire } from 'node:module';\nconst require = wardCreateRequire(import.meta.url);";

const ABOVE_LATIN1 = /[\u0100-\uffff]/;
const EACH_ABOVE_LATIN1 = new RegExp(ABOVE_LATIN1, 'g');
const COMMENT_LINE = /^\s*(\*|\/\/|\/\*)/;
const escaped = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * V8 keeps a module's source text while it runs (functions compile when first called), one byte per
 * character when every character is below U+0100, else two: the 2.4 MB bundle held 4.8 MB of heap for
 * six characters. esbuild escapes them in strings but leaves comments, template literals and regular
 * expressions as written. In a comment line (a package's documentation) such a character becomes an
 * escape. Anywhere else it stays, and `left` says on which lines (1-based): write it as an escape or an
 * HTML entity in src/ (test/ops/bundle-one-byte.test.ts holds src/ to it; an older src/ the benchmark
 * builds still builds).
 */
export function keepOneByte(text) {
  if (!ABOVE_LATIN1.test(text)) return { text, left: [] };
  const lines = text.split('\n').map((l) => (COMMENT_LINE.test(l) ? l.replace(EACH_ABOVE_LATIN1, escaped) : l));
  return { text: lines.join('\n'), left: lines.flatMap((l, i) => (ABOVE_LATIN1.test(l) ? [i + 1] : [])) };
}

let importedBuilds = 0;

/**
 * A module of `src` run at build time: compiled by esbuild (`options`) to a file of its own in `out`
 * (an import is cached by name, and the benchmark builds several src/), imported, and removed.
 */
async function importAtBuild(build, entry, out, options) {
  const tmp = join(out, `.at-build-${process.pid}-${importedBuilds++}.mjs`);
  await build({ ...FOR_NODE, ...options, entryPoints: [entry], outfile: tmp, bundle: true });
  try {
    return await import(pathToFileURL(tmp).href);
  } finally {
    rmSync(tmp, { force: true });
  }
}

/**
 * The settings' validators compiled ahead (src/config/schema/ahead.ts: Ajv standalone code) as an
 * esbuild plugin that puts them in place of src/config/schema/precompiled.ts, so a start compiles
 * none. None for a src/ without ahead.ts (an older commit the benchmark builds).
 */
async function precompiledSettings(build, src, out) {
  const ahead = join(src, 'config/schema/ahead.ts');
  if (!existsSync(ahead)) return [];
  const { precompiledSettingsModule } = await importAtBuild(build, ahead, out, { banner: { js: REQUIRE_BANNER } });
  const contents = precompiledSettingsModule('./checks.js');
  const target = join(src, 'config/schema/precompiled.ts');
  return [
    {
      name: 'precompiled-settings',
      setup(b) {
        b.onLoad({ filter: /precompiled\.ts$/ }, (args) =>
          args.path === target ? { contents, loader: 'js', resolveDir: dirname(target) } : undefined,
        );
      },
    },
  ];
}

/**
 * The password estimator's dictionaries ranked ahead, written beside the server (speed-up
 * `prepared_dictionaries`, src/accounts/tuning/prepared-dictionaries.ts makes them); none for a src/
 * without that module (an older commit the benchmark builds).
 */
async function writePreparedDictionaries(build, src, out) {
  const entry = join(src, 'accounts/tuning/prepared-dictionaries.ts');
  if (!existsSync(entry)) return;
  const { prepareDictionaries, PREPARED_DICTIONARIES_FILE } = await importAtBuild(build, entry, out, {
    packages: 'external',
  });
  // The packages found from the project, wherever `out` is.
  const resolveFromProject = createRequire(join(root, 'package.json')).resolve;
  // Whole or not at all: a server already running from `out` may start a thread meanwhile.
  const file = join(out, PREPARED_DICTIONARIES_FILE);
  writeFileSync(`${file}.${process.pid}`, prepareDictionaries(resolveFromProject));
  renameSync(`${file}.${process.pid}`, file);
}

/**
 * Builds `src` (a src/ folder) into `out`; `files` writes one file per module instead of one bundle;
 * `plugins`: esbuild plugins added to the build (the benchmark's what-ifs, bench/ward.ts; none here);
 * `inline`: the packages the bundle takes in (the benchmark compares INLINE_ESM with INLINE).
 */
export async function buildWard({
  src = join(root, 'src'),
  out = join(root, 'dist'),
  files = false,
  plugins = [],
  inline = INLINE,
} = {}) {
  const { build } = await import('esbuild');
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  // devDependencies too: an older src/ the benchmark builds may import one that was a dependency then.
  const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })
    .filter((d) => !inline.includes(d))
    .flatMap((d) => [d, `${d}/*`]);
  rmSync(out, { recursive: true, force: true });
  const common = { ...FOR_NODE, plugins };
  if (files) await build({ ...common, entryPoints: [join(src, '**/*.ts')], outbase: src, outdir: out, bundle: false });
  else {
    // Kept in memory (`write: false`) so the text is written once, made one byte per character.
    const { outputFiles } = await build({
      ...common,
      plugins: [...plugins, ...(await precompiledSettings(build, src, out))],
      entryPoints: [join(src, 'cli.ts')],
      outfile: join(out, 'cli.js'),
      bundle: true,
      external,
      banner: { js: REQUIRE_BANNER },
      write: false,
    });
    mkdirSync(out, { recursive: true });
    for (const f of outputFiles) {
      const { text, left } = keepOneByte(f.text);
      if (left.length)
        process.stderr.write(`build: characters above U+00FF outside comments, ${f.path} lines ${left.join(', ')}\n`);
      writeFileSync(f.path, text);
    }
  }
  // The console reads them beside its module: <out>/static (bundle) or <out>/console/static (files);
  // a src/ from before the console (the benchmark's --refs) has none.
  if (existsSync(join(src, 'console/static')))
    cpSync(join(src, 'console/static'), join(out, files ? 'console/static' : 'static'), { recursive: true });
  await writePreparedDictionaries(build, src, out);
  return join(out, 'cli.js');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--src');
  const src = at >= 0 ? resolve(args[at + 1]) : undefined;
  const out = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--src');
  const cli = await buildWard({ src, out: out ? resolve(out) : undefined, files: args.includes('--files') });
  process.stdout.write(`built ${cli}\n`);
}
