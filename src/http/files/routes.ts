import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { FileStore } from '../../storage/file-store';
import { ForbiddenError, NotFoundError } from '../../domain/errors';
import { EMBEDDABLE_ACROSS_ORIGINS } from '../security-headers';

/** What the store writes for clients to fetch; anything else (a `.tmp` being written) stays hidden. */
const SERVED = /\.(jpe?g|png|webp|pdf|json)$/;

const REFUSALS = {
  unsigned: new ForbiddenError(
    'FILE_URL_UNSIGNED',
    'files are served only at the signed URLs the API hands out (expires and signature); ask the API for a fresh URL',
  ),
  invalid: new ForbiddenError(
    'FILE_URL_INVALID',
    'the signature does not match this file and expiry; ask the API for a fresh URL',
  ),
  expired: new ForbiddenError('FILE_URL_EXPIRED', 'this file URL has expired; ask the API for a fresh URL'),
} as const;

/**
 * Serves stored assets (cover previews, print files) at PUBLIC_URL/files/<key>, from whichever
 * store holds them: the bytes are streamed through this process (a proxy, not a redirect to the
 * object store), so PUBLIC_URL stays the only address clients see and the store need not be
 * reachable from outside. Content type, length, ETag and Last-Modified, single byte ranges and
 * conditional requests; no listing, nothing outside the store. Only signed, unexpired URLs are
 * served (FileStore.url makes them): a key alone reads nothing, whoever knows it. Hence `private`
 * caching, no longer than a URL lives.
 */
export const fileRoutes: FastifyPluginAsync<{ files: FileStore }> = async (app, { files }) => {
  await app.register(
    async (scope) => {
      const notFound = (url: string) => new NotFoundError('file', url.slice('/files/'.length).split('?')[0]);
      // The key as sent (no `..` resolved): the signature covers exactly what the client asked for.
      const keyOf = (request: FastifyRequest): string => {
        try {
          return decodeURIComponent(request.url.split('?', 1)[0].slice('/files/'.length));
        } catch {
          throw notFound(request.url);
        }
      };
      scope.addHook('onRequest', async (request) => {
        const query = new URLSearchParams(request.url.split('?', 2)[1] ?? '');
        const verdict = files.verifyUrl(keyOf(request), query.get('expires'), query.get('signature'));
        if (verdict !== 'valid') throw REFUSALS[verdict];
      });
      scope.setNotFoundHandler((request) => {
        throw notFound(request.url);
      });
      // Reached through the signed URLs the API hands out, not called by integrators: no OpenAPI operation.
      scope.get('/*', { schema: { hide: true } }, async (request, reply) => {
        const key = keyOf(request);
        if (!files.isValidKey(key) || !SERVED.test(key)) throw notFound(request.url);
        const { range, 'if-none-match': ifNoneMatch, 'if-modified-since': ifModifiedSince } = request.headers;
        const modifiedSince = ifModifiedSince ? new Date(ifModifiedSince) : undefined;
        const download = await files.download(key, {
          ...(range ? { range } : {}),
          ...(ifNoneMatch ? { ifNoneMatch } : {}),
          ...(modifiedSince && !Number.isNaN(modifiedSince.getTime()) ? { ifModifiedSince: modifiedSince } : {}),
        });
        if (!download) throw notFound(request.url);
        // Shops embed previews in their pages and e-mails: another origin may load these.
        reply
          .header('cache-control', 'private, max-age=300')
          .header(...EMBEDDABLE_ACROSS_ORIGINS)
          .header('accept-ranges', 'bytes');
        if (download.kind === 'not-modified') {
          if (download.etag) reply.header('etag', download.etag);
          return reply.code(304).send();
        }
        if (download.kind === 'unsatisfiable')
          return reply.code(416).header('content-range', `bytes */${download.totalBytes}`).send();
        reply
          .header('content-type', download.contentType)
          .header('content-length', download.bytes)
          .header('etag', download.etag)
          .header('last-modified', download.lastModified.toUTCString());
        if (download.range)
          reply
            .code(206)
            .header('content-range', `bytes ${download.range.start}-${download.range.end}/${download.totalBytes}`);
        return reply.send(download.body);
      });
    },
    { prefix: '/files' },
  );
};
