import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppServices } from '../../services/app-services';
import { contextOf } from '../request-context';
import { authenticateBeforeTheBody } from '../authenticate-request';
import { actionViewOf } from '../../services/orders/order-view';
import {
  campaignSchema,
  cancelOrderSchema,
  claimOrderSchema,
  coverDimensionsSchema,
  deleteSchema,
  duplicateSchema,
  eventsSchema,
  generateSchema,
  listSchema,
  orderActionsSchema,
  orderListSchema,
  orderSchema,
  preflightSchema,
  printFilesSchema,
  printSchema,
  proofSchema,
  quoteSchema,
  readProofSchema,
  statusSchema,
  transferSchema,
  updateRecipientSchema,
  updateShippingSchema,
} from './schemas';

/**
 * The PWA backend family (docs/api.md, PWA backend): the `X-Service` header authenticates every route,
 * checked once here, before anything else is read.
 */
export const pwaRoutes: FastifyPluginAsyncTypebox<{ services: AppServices; bodyLimit: number }> = async (
  app,
  { services, bodyLimit },
) => {
  const { projects } = services;
  authenticateBeforeTheBody(app, services.authenticator, { editor: false, bodyLimit });

  app.post('/v2/generate', { schema: generateSchema }, async (request) => {
    const { url } = await projects.generate(contextOf(request, services.em), request.body);
    return { url };
  });

  app.get('/v2/project/list', { schema: listSchema }, async (request) => {
    const { user, cursor } = request.query;
    return projects.list(contextOf(request, services.em), user, cursor);
  });

  app.get('/v2/project/status', { schema: statusSchema }, async (request) =>
    projects.status(contextOf(request, services.em), request.query.id),
  );

  app.get('/v2/project/preflight', { schema: preflightSchema }, async (request) =>
    services.production.preflight(contextOf(request, services.em), request.query.id),
  );

  app.post('/v2/project/proof', { schema: proofSchema }, async (request) =>
    services.production.proof(contextOf(request, services.em), request.body),
  );

  app.get('/v2/project/proof', { schema: readProofSchema }, async (request) =>
    services.production.readProof(contextOf(request, services.em), request.query.proofId),
  );

  app.get('/v2/product/cover-dimensions', { schema: coverDimensionsSchema }, async (request) =>
    services.production.coverDimensions(contextOf(request, services.em), request.query.sku, request.query.pages),
  );

  app.post('/v2/print', { schema: printSchema }, async (request) => {
    if (request.body.validateOnly === true)
      return services.orders.validate(contextOf(request, services.em), request.body);
    const { message } = await services.orders.print(contextOf(request, services.em), request.body);
    return { message };
  });

  app.post('/v2/quote', { schema: quoteSchema }, async (request) =>
    services.orders.quote(contextOf(request, services.em), request.body),
  );

  app.get('/v2/order/print-files', { schema: printFilesSchema }, async (request) =>
    services.orders.printFiles(contextOf(request, services.em), request.query.orderId, request.query.projectId),
  );

  app.get('/v2/order', { schema: orderSchema }, async (request) =>
    services.orders.view(contextOf(request, services.em), request.query.orderId),
  );

  app.get('/v2/order/list', { schema: orderListSchema }, async (request) =>
    services.orders.list(contextOf(request, services.em), request.query),
  );

  app.get('/v2/order/actions', { schema: orderActionsSchema }, async (request) => {
    const { orderId, holdUntil, actions } = await services.orders.actions(
      contextOf(request, services.em),
      request.query.orderId,
    );
    return {
      orderId,
      ...(holdUntil !== undefined ? { holdUntil: holdUntil.getTime() } : {}),
      actions: actions.map(actionViewOf),
    };
  });

  app.post('/v2/order/cancel', { schema: cancelOrderSchema }, async (request) => {
    const ctx = contextOf(request, services.em);
    const order = await services.orders.cancel(ctx, request.body);
    return services.orders.view(ctx, order.orderId);
  });

  app.post('/v2/order/update-recipient', { schema: updateRecipientSchema }, async (request) => {
    const ctx = contextOf(request, services.em);
    const order = await services.orders.updateRecipient(ctx, request.body);
    return services.orders.view(ctx, order.orderId);
  });

  app.post('/v2/order/update-shipping', { schema: updateShippingSchema }, async (request) => {
    const ctx = contextOf(request, services.em);
    const order = await services.orders.updateShipping(ctx, request.body);
    return services.orders.view(ctx, order.orderId);
  });

  app.post('/v2/order/claim', { schema: claimOrderSchema }, async (request) => {
    const ctx = contextOf(request, services.em);
    const remake = await services.orders.claim(ctx, request.body);
    return services.orders.view(ctx, remake.orderId);
  });

  app.get('/v2/events', { schema: eventsSchema }, async (request) => {
    const { types, ...query } = request.query;
    return services.webhooks.events(contextOf(request, services.em), {
      ...query,
      ...(types !== undefined ? { types: types.split(',').map((t) => t.trim()) } : {}),
    });
  });

  app.post('/v2/project/delete', { schema: deleteSchema }, async (request) => {
    const ids = await projects.delete(contextOf(request, services.em), request.body);
    return { message: `${request.body.type === 'sync' ? 'Deleted' : 'Deleting'} projects: ${ids.join(', ')}` };
  });

  app.post('/v2/project/duplicate', { schema: duplicateSchema }, async (request) =>
    projects.duplicate(contextOf(request, services.em), request.body),
  );

  app.post('/v2/project/transfer', { schema: transferSchema }, async (request) =>
    projects.transfer(contextOf(request, services.em), request.body),
  );

  app.post('/v2/campaign/auto-generate', { schema: campaignSchema }, async (request) => {
    const { message } = await services.campaigns.start(contextOf(request, services.em), request.body);
    return { message };
  });
};
