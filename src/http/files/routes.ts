import { mkdir } from 'node:fs/promises';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import type { FileStore } from '../../storage/file-store';
import { ForbiddenError, NotFoundError } from '../../domain/errors';
import { EMBEDDABLE_ACROSS_ORIGINS } from '../security-headers';

/** What the store writes for clients to fetch; anything else (a `.tmp` being written) stays hidden. */
const SERVED = /\.(jpe?g|png|webp|pdf|json)$/;

const REFUSALS = {
  unsigned: new ForbiddenError('FILE_URL_UNSIGNED', 'files are served only at the signed URLs the API hands out (expires and signature); ask the API for a fresh URL'),
  invalid: new ForbiddenError('FILE_URL_INVALID', 'the signature does not match this file and expiry; ask the API for a fresh URL'),
  expired: new ForbiddenError('FILE_URL_EXPIRED', 'this file URL has expired; ask the API for a fresh URL'),
} as const;

/**
 * Serves stored assets (cover previews, print files) at PUBLIC_URL/files/<key> with
 * @fastify/static: content types, ETag and Last-Modified, ranges, no directory listing, nothing
 * outside the store. Only signed, unexpired URLs are served (FileStore.url makes them): a key
 * alone reads nothing, whoever knows it. Hence `private` caching, no longer than a URL lives.
 */
export const fileRoutes: FastifyPluginAsync<{ files: FileStore }> = async (app, { files }) => {
  await mkdir(files.root, { recursive: true });
  await app.register(
    async (scope) => {
      const notFound = (url: string) => new NotFoundError('file', url.slice('/files/'.length).split('?')[0]);
      // The key as sent (no `..` resolved): the signature covers exactly what the client asked for.
      scope.addHook('onRequest', async (request) => {
        const [pathPart = '', queryPart = ''] = request.url.split('?', 2);
        let key: string;
        try {
          key = decodeURIComponent(pathPart.slice('/files/'.length));
        } catch {
          throw notFound(request.url);
        }
        const query = new URLSearchParams(queryPart);
        const verdict = files.verifyUrl(key, query.get('expires'), query.get('signature'));
        if (verdict !== 'valid') throw REFUSALS[verdict];
      });
      scope.setNotFoundHandler((request) => {
        throw notFound(request.url);
      });
      // @fastify/static refuses a path that would leave the store with a bare 403; to a client it
      // is a key like any other that does not exist. Other errors go on to the app's handler.
      scope.setErrorHandler((error: { statusCode?: number }, request) => {
        throw error.statusCode === 403 ? notFound(request.url) : error;
      });
      await scope.register(fastifyStatic, {
        root: files.root,
        decorateReply: false,
        index: false,
        list: false,
        serveDotFiles: false,
        allowedPath: (pathName) => files.isValidKey(pathName.slice(1)) && SERVED.test(pathName),
        cacheControl: false,
        // Shops embed previews in their pages and e-mails: another origin may load these.
        setHeaders: (reply) => reply.header('cache-control', 'private, max-age=300').header(...EMBEDDABLE_ACROSS_ORIGINS),
      });
    },
    { prefix: '/files' },
  );
};
