import type { FastifyPluginAsync } from 'fastify';
import type { AppServices } from '../../services/app-services';
import { contextOf } from '../request-context';
import { problemResponses } from '../shared-schemas';

const campaignSchema = {
  tags: ['campaigns'],
  operationId: 'startCampaign',
  summary: 'Generate one project per row of a CSV',
  description:
    'Answers at once, naming the URL and the new campaign id; the CSV is then downloaded and worked through. ' +
    "Each good row's project is announced to the client's webhook (signed, Standard Webhooks) when it is editable. " +
    'A webhook must be set for the environment first (409 WEBHOOK_NOT_CONFIGURED otherwise). Progress: GraphQL campaign(id) and campaignProgress(id).',
  security: [{ XService: [] }],
  body: {
    type: 'object',
    required: ['csvUrl'],
    properties: { csvUrl: { type: 'string', minLength: 1, maxLength: 2000, description: 'http(s) URL of the CSV to download' } },
  },
  response: {
    200: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
    ...problemResponses(400, 401, 409),
  },
} as const;

/** Spec 4.3, in a room of its own: the same X-Service door as the other PWA routes. */
export const campaignRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  app.addHook('onRequest', async (request) => {
    request.tenant = await services.authenticator.fromServiceHeader(request.headers['x-service']);
  });

  app.post<{ Body: { csvUrl: string } }>('/v2/campaign/auto-generate', { schema: campaignSchema }, async (request) => {
    const { message } = await services.campaigns.start(contextOf(request, services.em), request.body);
    return { message };
  });
};
