import { mkdir } from 'node:fs/promises';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import type { FileStore } from '../storage/file-store';
import { NotFoundError } from '../services/errors';

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
      scope.setNotFoundHandler((request) => {
        throw new NotFoundError('file', request.url.slice('/files/'.length).split('?')[0]);
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
