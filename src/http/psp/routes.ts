import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppServices } from '../../services/app-services';
import { UnauthenticatedError, ValidationError } from '../../domain/errors';
import { verifyPspEvent, PspWebhookError, type PspEvent } from '../../printers/psp-webhooks';
import { partnerCallbackSchema, printerEventSchema } from './schemas';

/**
 * Printer status events: `POST /v2/psp/{psp}/events`, authenticated by the printer's Standard
 * Webhooks signature over the raw body (no X-Service: printers are not clients).
 */
export const pspRoutes: FastifyPluginAsyncTypebox<{ services: AppServices; secrets: Record<string, string> }> = async (
  app,
  { services, secrets },
) => {
  // The signature covers the exact bytes sent, so this scope keeps the body as a string.
  app.addContentTypeParser(
    ['application/json', 'application/cloudevents+json'],
    { parseAs: 'string' },
    (_request, body, done) => done(null, body),
  );

  app.post('/v2/psp/:psp/events', { schema: printerEventSchema }, async (request, reply) => {
    const secret = secrets[request.params.psp];
    if (!secret)
      throw new UnauthenticatedError(`no signing secret is configured for psp "${request.params.psp}"`, 'psp');
    let event: PspEvent;
    try {
      event = verifyPspEvent({
        secret,
        headers: request.headers as Record<string, string>,
        rawBody: (request.body as string | undefined) ?? '',
      });
    } catch (error) {
      if (error instanceof PspWebhookError) {
        if (error.code === 'MALFORMED_EVENT') throw ValidationError.field('(body)', error.message, 'MALFORMED_EVENT');
        throw new UnauthenticatedError(error.message, 'webhook-signature');
      }
      throw error;
    }
    const result = await services.orders.receivePrinterEvent(request.params.psp, event);
    return reply.status(202).send({ accepted: true, status: result.status });
  });

  app.post('/v2/printers/:partner/callbacks/:token', { schema: partnerCallbackSchema }, async (request, reply) => {
    const result = await services.partners.receiveCallback(request.params.partner, request.params.token, {
      headers: request.headers,
      rawBody: Buffer.from((request.body as string | undefined) ?? '', 'utf8'),
    });
    return reply.status(202).send({ accepted: true, ...result });
  });
};
