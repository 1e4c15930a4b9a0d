import type { FastifyPluginAsync } from 'fastify';
import type { AppServices } from '../services/app-services';
import { UnauthenticatedError, ValidationError } from '../domain/errors';
import { verifyPspEvent, PspWebhookError } from '../printers/psp-webhooks';
import { problemResponses } from './shared-schemas';

/**
 * Printer status events: `POST /v2/psp/{psp}/events`, authenticated by the printer's Standard
 * Webhooks signature over the raw body (no X-Service: printers are not clients).
 */
export const pspRoutes: FastifyPluginAsync<{ services: AppServices; secrets: Record<string, string> }> = async (app, { services, secrets }) => {
  // The signature covers the exact bytes sent, so this scope keeps the body as a string.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.post<{ Params: { psp: string }; Body: string }>(
    '/v2/psp/:psp/events',
    {
      schema: {
        tags: ['printers'],
        summary: 'A printer reports the status of a print job',
        description: 'Signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature) with the printer\'s secret. Body: {jobId, status, trackingUrl?, occurredAt?}.',
        params: { type: 'object', required: ['psp'], properties: { psp: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,50}$' } } },
        response: {
          202: { type: 'object', required: ['accepted', 'status'], properties: { accepted: { type: 'boolean' }, status: { type: 'string' } } },
          ...problemResponses(400, 401, 404),
        },
      },
    },
    async (request, reply) => {
      const secret = secrets[request.params.psp];
      if (!secret) throw new UnauthenticatedError(`no signing secret is configured for psp "${request.params.psp}"`, 'psp');
      let event;
      try {
        event = verifyPspEvent({ secret, headers: request.headers as Record<string, string>, rawBody: request.body ?? '' });
      } catch (error) {
        if (error instanceof PspWebhookError) {
          if (error.code === 'MALFORMED_EVENT') throw ValidationError.field('(body)', error.message, 'MALFORMED_EVENT');
          throw new UnauthenticatedError(error.message, 'webhook-signature');
        }
        throw error;
      }
      const result = await services.orders.receivePrinterEvent(request.params.psp, event);
      return reply.status(202).send({ accepted: true, status: result.status });
    },
  );
};
