// `npm start` runs the service from one JavaScript bundle built here (prestart, ~0.2 s) instead
// of transpiling TypeScript on the fly: tsx's loader thread alone costs ~33 MiB of resident
// memory for the life of the process. Dependencies stay external (resolved from node_modules);
// dynamic imports become chunks of their own, so what the service loads lazily (the Temporal
// client) is still loaded only when used. keepNames keeps class names, which MikroORM and
// type-graphql read, and function names in stack traces.
//
// The image builds the same bundles ahead of time (scripts/build-image-payload.sh), with
// `--outdir <folder>`; `--temporal-workflows` also bundles workflows/temporal for Temporal's
// sandbox (.build/temporal-workflows.js), which the Temporal worker then loads instead of
// bundling it at every start.
import { build } from 'esbuild';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { buildExplorer } from './build-explorer.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { values: options } = parseArgs({
  options: { outdir: { type: 'string' }, 'temporal-workflows': { type: 'boolean', default: false } },
});
const outdir = path.resolve(root, options.outdir ?? '.build');

// Empties the folder rather than replacing it: in the Docker image the service's user owns
// .build but not the folder it sits in.
await mkdir(outdir, { recursive: true });
// The explorer's bundle is kept: it is rebuilt only when it changes (build-explorer.mjs), below.
for (const entry of await readdir(outdir))
  if (entry !== 'explorer') await rm(path.join(outdir, entry), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: {
    main: 'src/main.ts',
    // The Temporal worker (`npm run worker` from the sources) and the operator CLI, for the image.
    worker: 'src/worker.ts',
    cli: 'src/cli.ts',
    // The print render process is forked from its own entry (src/imaging/print/render-process.ts).
    'render-process-child': 'src/imaging/print/render-process-child.ts',
    // The HEIC decoder's worker threads start from their own entry (src/imaging/heic-wasm-pool.ts).
    'heic-decode-worker': 'src/imaging/heic-decode-worker.ts',
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node24',
  packages: 'external',
  keepNames: true,
  tsconfig: 'tsconfig.json',
  logLevel: 'warning',
});
await buildExplorer(path.join(outdir, 'explorer'));

if (options['temporal-workflows']) {
  // Only where the Temporal worker runs: @temporalio/worker (webpack, swc) is not in the API's image.
  const { bundleWorkflowCode } = await import('@temporalio/worker');
  const { code } = await bundleWorkflowCode({ workflowsPath: path.join(root, 'workflows/temporal/index.ts') });
  await writeFile(path.join(outdir, 'temporal-workflows.js'), code);
}
