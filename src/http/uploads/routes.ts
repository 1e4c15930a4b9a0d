import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Server } from '@tus/server';
import { Metadata } from '@tus/utils';
import type { AppServices } from '../../services/app-services';
import type { RequestContext } from '../../services/context';
import { DomainError, ValidationError } from '../../domain/errors';
import { authenticateBeforeTheBody } from '../authenticate-request';
import { contextOf } from '../request-context';
import { toProblem } from '../problem';
import { UPLOADS_PATH } from './uploads-path';

/** A tus request's caller and upload, handed from our route to tus's hooks through the Node request. */
interface Caller {
  ctx: RequestContext;
  uploadId: string;
  /** Set when its last byte made it a photo (or was refused): its bytes in the upload store are then removed. */
  settled?: boolean;
}

/**
 * Photo uploads over tus 1.0 (docs/api.md, Uploads), on `@tus/server` with the store of
 * src/storage/upload-store.ts. Our routes authenticate (`X-Service`, or an editor link for its own
 * project), ask the upload service whether the caller may create or touch the upload, and only
 * then hand the request to tus, which speaks the protocol (offsets, `Upload-*` headers, the body as
 * a stream never held whole). The last byte calls the service from tus's `onUploadFinish`.
 * `OPTIONS` answers without credentials, as browsers send it without them.
 */
export const uploadRoutes: FastifyPluginAsync<{ services: AppServices; publicUrl: string; bodyLimit: number }> = async (
  app,
  { services, publicUrl, bodyLimit },
) => {
  const store = services.uploadStore;
  const callers = new WeakMap<IncomingMessage, Caller>();
  const callerOf = (req: { runtime?: { node?: { req?: IncomingMessage } } }): Caller => {
    const caller = req.runtime?.node?.req && callers.get(req.runtime.node.req);
    if (!caller) throw new Error('a tus request reached its hook without passing our route');
    return caller;
  };
  const tus = new Server({
    path: UPLOADS_PATH,
    datastore: store.datastore,
    // The real limit is checked by the service before the upload exists (413 UPLOAD_TOO_LARGE with our problem body).
    maxSize: services.uploads.maxBytes,
    generateUrl: (_req, { id }) => `${publicUrl}${UPLOADS_PATH}/${store.uploadId(id)}`,
    getFileIdFromRequest: (_req, lastPath) => (lastPath ? store.storeId(lastPath) : undefined),
    namingFunction: (req) => store.storeId(callerOf(req as never).uploadId),
    disableTerminationForFinishedUploads: true,
    async onUploadFinish(req): Promise<{ status_code?: number; headers?: Record<string, string>; body?: string }> {
      const caller = callerOf(req as never);
      const { ctx, uploadId } = caller;
      // tus still reads the upload after this hook: its bytes are removed once tus has answered (handOver).
      caller.settled = true;
      try {
        const { photoId, duplicate } = await services.uploads.finish(ctx, uploadId);
        return { headers: { 'Upload-Photo-Id': photoId, 'Upload-Duplicate': String(duplicate) } };
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const body = toProblem(error);
        return {
          status_code: body.status,
          headers: { 'Content-Type': 'application/problem+json' },
          body: JSON.stringify({ ...body, requestId: ctx.requestId }),
        };
      }
    },
  });

  const handOver = async (request: FastifyRequest, reply: FastifyReply, caller?: Caller) => {
    if (caller) callers.set(request.raw, caller);
    reply.hijack();
    await tus.handle(request.raw, reply.raw);
    if (caller?.settled) await store.remove(caller.uploadId);
  };

  await app.register(async (open: FastifyInstance) => {
    open.options(UPLOADS_PATH, { schema: { hide: true } }, (request, reply) => handOver(request, reply));
    open.options(`${UPLOADS_PATH}/:id`, { schema: { hide: true } }, (request, reply) => handOver(request, reply));
  });

  await app.register(async (authenticated: FastifyInstance) => {
    authenticateBeforeTheBody(authenticated, services.authenticator, { editor: true, bodyLimit });
    // tus's body is a stream tus itself reads (and counts); Fastify leaves it unread.
    authenticated.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) =>
      done(null, undefined),
    );

    authenticated.post(UPLOADS_PATH, { schema: { hide: true } }, async (request, reply) => {
      const ctx = contextOf(request, services.em);
      const { uploadId } = await services.uploads.create(ctx, {
        metadata: metadataOf(request.headers['upload-metadata']),
        length: lengthOf(request.headers['upload-length']),
      });
      await handOver(request, reply, { ctx, uploadId });
    });

    authenticated.head<{ Params: { id: string } }>(
      `${UPLOADS_PATH}/:id`,
      { schema: { hide: true } },
      async (request, reply) => {
        const ctx = contextOf(request, services.em);
        const state = await services.uploads.state(ctx, request.params.id, false);
        if (state.open) return handOver(request, reply, { ctx, uploadId: request.params.id });
        // Finished: its bytes moved to the photo; the offset a client resumes from is the end.
        return reply
          .status(200)
          .headers({
            'Tus-Resumable': '1.0.0',
            'Upload-Offset': String(state.length),
            'Upload-Length': String(state.length),
            'Cache-Control': 'no-store',
          })
          .send();
      },
    );

    authenticated.patch<{ Params: { id: string } }>(
      `${UPLOADS_PATH}/:id`,
      { schema: { hide: true } },
      async (request, reply) => {
        const ctx = contextOf(request, services.em);
        await services.uploads.requireOpen(ctx, request.params.id, true);
        await handOver(request, reply, { ctx, uploadId: request.params.id });
      },
    );

    authenticated.delete<{ Params: { id: string } }>(
      `${UPLOADS_PATH}/:id`,
      { schema: { hide: true } },
      async (request, reply) => {
        const ctx = contextOf(request, services.em);
        // The photo goes first, so that once tus answers 204 (and removes the bytes) nothing of it is left.
        await services.uploads.terminate(ctx, request.params.id);
        await handOver(request, reply, { ctx, uploadId: request.params.id });
      },
    );
  });
};

/** `Upload-Metadata`: comma-separated `key base64value` pairs (tus 1.0, Creation). */
function metadataOf(header: string | string[] | undefined): Record<string, string | null> {
  if (header === undefined) return {};
  try {
    return Metadata.parse(Array.isArray(header) ? header.join(',') : header);
  } catch {
    throw ValidationError.field(
      'Upload-Metadata',
      'must be comma-separated pairs of a key and its value in base64 (tus 1.0), e.g. "projectId cC0x..."',
    );
  }
}

function lengthOf(header: string | string[] | undefined): number | undefined {
  if (typeof header !== 'string' || !/^\d{1,16}$/.test(header)) return undefined;
  return Number(header);
}
