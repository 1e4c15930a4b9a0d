import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyPluginAsync } from 'fastify';
import type { FileStore } from '../storage/file-store';
import { NotFoundError } from '../domain/errors';

const TYPES: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', pdf: 'application/pdf', json: 'application/json' };

/**
 * Serves stored assets (cover previews, thumbnails) at PUBLIC_URL/files/<key>. Keys contain the
 * unguessable project id, the same capability the editor link carries.
 */
export const fileRoutes: FastifyPluginAsync<{ files: FileStore }> = async (app, { files }) => {
  app.get<{ Params: { '*': string } }>('/files/*', { schema: { hide: true } }, async (request, reply) => {
    const key = request.params['*'];
    if (!files.isValidKey(key) || !/\.(jpe?g|png|webp|pdf|json)$/.test(key)) throw new NotFoundError('file', key);
    const file = files.pathOf(key);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) throw new NotFoundError('file', key);
    reply.header('content-type', TYPES[key.split('.').pop()!]);
    reply.header('content-length', info.size);
    reply.header('cache-control', 'private, max-age=300');
    return reply.send(createReadStream(file));
  });
};
