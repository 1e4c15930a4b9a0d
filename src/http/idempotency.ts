import { UPLOADS_PATH } from './uploads/uploads-path';
import { createHash } from 'node:crypto';
import { canonicalJson } from '../domain/canonical-json';
import { Type } from 'typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import type { AppServices } from '../services/app-services';
import { GRAPHQL_PATH } from '../graphql/graphql-server';
import { contextOf } from './request-context';
import { PSP_TAGS } from './psp/schemas';

const IdempotencyKeyHeader = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        'Retrying with the same key and body answers the first answer without doing it again (docs/api.md, Idempotency)',
    }),
  ),
});

declare module 'fastify' {
  interface FastifyRequest {
    /** The `Idempotency-Key` this request claimed; its answer is stored when it is sent. */
    claimedIdempotencyKey?: string;
  }
}

/**
 * `Idempotency-Key` on every POST of the REST facade (docs/api.md, Idempotency). Added to each
 * POST route as its last preHandler, so it runs once the request is authenticated and valid: a
 * request the schema refuses claims no key. Replays carry `Idempotent-Replayed: true`.
 */
export function honourIdempotencyKeys(app: FastifyInstance, services: AppServices): void {
  const claim: preHandlerHookHandler = async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || !request.tenant) return;
    const outcome = await services.idempotency.claim(contextOf(request, services.em), key, requestHashOf(request));
    if (outcome.kind === 'claimed') {
      request.claimedIdempotencyKey = key;
      return;
    }
    return reply
      .status(outcome.status)
      .type(outcome.contentType)
      .header('idempotent-replayed', 'true')
      .send(outcome.body);
  };

  const store: onSendHookHandler = async (request, reply, payload) => {
    const key = request.claimedIdempotencyKey;
    if (!key) return payload;
    request.claimedIdempotencyKey = undefined;
    const ctx = contextOf(request, services.em);
    if (reply.statusCode >= 500 || typeof payload !== 'string') await services.idempotency.release(ctx, key);
    else
      await services.idempotency.complete(ctx, key, {
        status: reply.statusCode,
        contentType: contentTypeOf(reply),
        body: payload,
      });
    return payload;
  };

  app.addHook('onRoute', (route) => {
    // A tus upload's POST is made once per photo and answered by tus itself (src/http/uploads): no key.
    if (![route.method].flat().includes('POST') || route.url === GRAPHQL_PATH || route.url === UPLOADS_PATH) return;
    // Published in the OpenAPI document with each POST a client calls (printers' signed events
    // authenticate no client, so no key is kept for them); the store checks the value.
    const forClients = !(route.schema?.tags as string[] | undefined)?.includes(PSP_TAGS.printers.name);
    if (route.schema && !route.schema.headers && !route.schema.hide && forClients)
      route.schema = { ...route.schema, headers: IdempotencyKeyHeader };
    route.preHandler = [...[route.preHandler ?? []].flat(), claim];
    route.onSend = [...[route.onSend ?? []].flat(), store];
  });
}

/** Method, route and body with its keys sorted: the same request hashes the same however it is written. */
function requestHashOf(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.routeOptions.url}\n${canonicalJson(request.body)}`)
    .digest('hex');
}

function contentTypeOf(reply: FastifyReply): string {
  return String(reply.getHeader('content-type') ?? 'application/json');
}
