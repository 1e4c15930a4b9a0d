import { mkdir } from 'node:fs/promises';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import type { FileStore } from '../storage/file-store';
import { NotFoundError } from '../domain/errors';

/** What the store writes for clients to fetch; anything else (a `.tmp` being written) stays hidden. */
const SERVED = /\.(jpe?g|png|webp|pdf|json)$/;

/**
 * Serves stored assets (cover previews, thumbnails, print files) at PUBLIC_URL/files/<key> with
 * @fastify/static: content types, ETag and Last-Modified, ranges, no directory listing, nothing
 * outside the store. Keys contain the unguessable project id, the same capability the editor
 * link carries, hence `private` caching.
 */
export const fileRoutes: FastifyPluginAsync<{ files: FileStore }> = async (app, { files }) => {
  await mkdir(files.root, { recursive: true });
  await app.register(
    async (scope) => {
      const notFound = (url: string) => new NotFoundError('file', url.slice('/files/'.length).split('?')[0]);
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
        setHeaders: (reply) => reply.header('cache-control', 'private, max-age=300'),
      });
    },
    { prefix: '/files' },
  );
};
