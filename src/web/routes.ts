import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { pageContentSecurityPolicy } from './page-csp';
import { cataloguePlaceholder } from '../imaging/catalogue-placeholder';
import { FONT_FILES } from '../imaging/fonts';
import { loadDemoCatalogue } from '../services/catalogue/catalogue-import';
import { projectPath } from '../config/project-root';
import { ORDER_STATUSES } from '../domain/order-status';

/** The pages' own sources (plain ES modules, no build step). */
const WEB_ROOT = projectPath('web') + path.sep;
const require = createRequire(import.meta.url);
/** A package's folder, found from its entry point (not every package exports its package.json). */
function packageDir(name: string): string {
  let dir = path.dirname(require.resolve(name));
  while (!existsSync(path.join(dir, 'package.json')) || path.basename(dir) !== name) dir = path.dirname(dir);
  return dir;
}

/**
 * The browser modules the pages import, by the names of their import map, served from the
 * installed packages: nothing is fetched from outside and nothing needs building.
 */
const VENDOR = new Map<string, () => string>([
  ['preact.js', () => path.join(packageDir('preact'), 'dist/preact.module.js')],
  ['preact-hooks.js', () => path.join(packageDir('preact'), 'hooks/dist/hooks.module.js')],
  ['htm.js', () => path.join(packageDir('htm'), 'dist/htm.module.js')],
  ['htm-preact.js', () => path.join(packageDir('htm'), 'preact/index.module.js')],
  ['graphql-ws.js', () => path.join(packageDir('graphql-ws'), 'dist/client.js')],
  // Its browser build is one UMD file: imported for its effect, it defines window.tus (web/app/photo-uploads.js).
  ['tus.js', () => path.join(packageDir('tus-js-client'), 'dist/tus.min.js')],
]);

export interface WebRouteOptions {
  publicUrl: string;
  /** The shop origins that may frame the editor of this project: its client's (empty for an unknown id). */
  shopOriginsOf(projectId: unknown): Promise<string[]>;
}

/**
 * The web face: the editor at /editor (FRONTEND_URL's default), the operations dashboard at
 * /dashboard, their modules under /web/, the fonts print files are set in under /web/fonts/ (the
 * editor shows texts in the same files), and the demo catalogue's pictures under /assets/catalogue/.
 * Each page answers with its own Content-Security-Policy (./page-csp.ts) in place of the API's.
 */
export const webRoutes: FastifyPluginAsync<WebRouteOptions> = async (app, { publicUrl, shopOriginsOf }) => {
  // Both pages are one shell (the import map, the stylesheet) around their own module, made once.
  const shell = await readFile(path.join(WEB_ROOT, 'page.html'), 'utf8');
  const page = (
    fields: Record<'title' | 'module' | 'loading' | 'name', string>,
    frameAncestors: (request: FastifyRequest) => Promise<readonly string[]>,
  ) => {
    const html = shell.replace(/\{\{(\w+)\}\}/g, (_match, key: keyof typeof fields) => fields[key]);
    return async (request: FastifyRequest, reply: FastifyReply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header(
          'content-security-policy',
          pageContentSecurityPolicy({ html, publicUrl, frameAncestors: await frameAncestors(request) }),
        )
        .send(html);
  };
  // The shops that open the editor in an iframe are its client's; X-Frame-Options cannot list them, CSP can.
  app.get(
    '/editor',
    { schema: { hide: true }, helmet: { contentSecurityPolicy: false, frameguard: false } },
    page(
      { title: 'Photobook editor', module: 'editor.js', loading: 'Opening your photobook…', name: 'photobook editor' },
      (request) => shopOriginsOf((request.query as Record<string, unknown>).id),
    ),
  );
  // The dashboard holds a shop's key and secret: nobody may frame it.
  app.get(
    '/dashboard',
    { schema: { hide: true }, helmet: { contentSecurityPolicy: false } },
    page(
      { title: 'Operations dashboard', module: 'dashboard.js', loading: 'Loading the dashboard…', name: 'dashboard' },
      async () => [],
    ),
  );

  const vendorSources = new Map<string, Promise<Buffer | undefined>>();
  // The pages' words from the domain itself (web/app imports ../vocabulary.js): one list, no copy in web/app.
  const vocabulary = `export const ORDER_STATUSES = ${JSON.stringify(ORDER_STATUSES)};\n`;
  app.get('/web/vocabulary.js', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(vocabulary),
  );

  app.get<{ Params: { file: string } }>('/web/vendor/:file', { schema: { hide: true } }, async (request, reply) => {
    const { file } = request.params;
    // graphql-ws's client imports one sibling chunk by a relative path.
    const resolve =
      VENDOR.get(file) ??
      (/^common-[A-Za-z0-9_-]+\.js$/.test(file) ? () => path.join(packageDir('graphql-ws'), 'dist', file) : undefined);
    // Installed packages do not change while the process runs: each file is found and read once.
    if (resolve && !vendorSources.has(file))
      vendorSources.set(
        file,
        readFile(resolve()).catch(() => undefined),
      );
    const source = resolve && (await vendorSources.get(file));
    if (!source) return reply.callNotFound();
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(source);
  });

  // Only the shipped faces, by their file names; any other name is a 404 like any unknown file.
  const fontSources = new Map<string, Promise<Buffer>>();
  app.get<{ Params: { file: string } }>('/web/fonts/:file', { schema: { hide: true } }, async (request, reply) => {
    const font = Object.hasOwn(FONT_FILES, request.params.file) ? FONT_FILES[request.params.file] : undefined;
    if (!font) return reply.callNotFound();
    if (!fontSources.has(request.params.file)) fontSources.set(request.params.file, readFile(font.path));
    return reply
      .type('font/ttf')
      .header('cache-control', 'public, max-age=86400')
      .send(await fontSources.get(request.params.file)!);
  });

  await app.register(fastifyStatic, {
    root: path.join(WEB_ROOT, 'app'),
    prefix: '/web/app/',
    decorateReply: false,
    index: false,
    list: false,
    cacheControl: false,
    setHeaders: (reply) => reply.header('cache-control', 'no-cache'),
  });

  // Only the pictures the demo catalogue names exist; another path is a 404 like any unknown file.
  const demoAssets = collectAssetPaths(await loadDemoCatalogue());
  const made = new Map<string, Promise<Buffer>>();
  app.get<{ Params: { '*': string } }>('/assets/catalogue/*', { schema: { hide: true } }, async (request, reply) => {
    const asset = request.params['*'];
    if (!demoAssets.has(asset)) return reply.callNotFound();
    if (!made.has(asset)) made.set(asset, cataloguePlaceholder(asset));
    // Shops show catalogue pictures on their own pages: another origin may load them.
    return reply
      .type('image/jpeg')
      .header('cache-control', 'public, max-age=86400')
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(await made.get(asset)!);
  });
};

function collectAssetPaths(node: unknown, into = new Set<string>()): Set<string> {
  if (typeof node === 'string' && /^[a-z0-9/_-]+\.(jpe?g|png)$/.test(node)) into.add(node);
  else if (Array.isArray(node)) node.forEach((item) => collectAssetPaths(item, into));
  else if (node && typeof node === 'object') Object.values(node).forEach((value) => collectAssetPaths(value, into));
  return into;
}
