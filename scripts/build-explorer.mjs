// The GraphQL explorer's bundle (web/explorer/ -> .build/explorer/): GraphiQL with React and the Monaco
// editor, and Monaco's three workers, for the service to serve from its own origin (no CDN). It is
// rebuilt only when its sources or the packages it bundles change (a stamp of both), so that
// `npm start`'s prestart stays quick; `node scripts/build-explorer.mjs` builds it alone.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const source = path.join(root, 'web/explorer');
const require = createRequire(path.join(root, 'package.json'));
const BUNDLED = ['graphiql', 'react', 'react-dom', 'monaco-editor', 'monaco-graphql', 'esbuild'];

export async function buildExplorer(outdir = path.join(root, '.build/explorer')) {
  // GraphiQL and React are devDependencies: an install without them (npm ci --omit=dev) serves a
  // bundle built beforehand, or none (the explorer's page then says how to build it).
  if (!existsSync(path.join(root, 'node_modules/graphiql/package.json'))) {
    console.warn(
      'build-explorer: graphiql is not installed (a production install?); the GraphQL explorer is not built',
    );
    return;
  }
  const stamp = await stampOf();
  const stampFile = path.join(outdir, 'stamp.txt');
  if ((await readFile(stampFile, 'utf8').catch(() => '')) === stamp) return;
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: {
      explorer: 'web/explorer/explorer.jsx',
      'editor.worker': 'monaco-editor/esm/vs/editor/editor.worker.js',
      'json.worker': 'monaco-editor/esm/vs/language/json/json.worker.js',
      'graphql.worker': 'monaco-graphql/esm/graphql.worker.js',
    },
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    jsx: 'automatic',
    loader: { '.ttf': 'file' },
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'linked',
    logLevel: 'warning',
  });
  await writeFile(stampFile, stamp);
}

/** The explorer's sources and the versions of what it bundles. */
async function stampOf() {
  const hash = createHash('sha256');
  for (const file of (await readdir(source)).sort()) hash.update(file).update(await readFile(path.join(source, file)));
  for (const name of BUNDLED) hash.update(`${name}@${JSON.parse(await readFile(packageJson(name), 'utf8')).version}`);
  return hash.digest('hex');
}

function packageJson(name) {
  return require.resolve(`${name}/package.json`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildExplorer();
