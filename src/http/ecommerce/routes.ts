import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppServices } from '../../services/app-services';
import { contextOf } from '../request-context';
import { languageOf } from '../../domain/localized';
import { listMarkets } from '../../services/markets/market-service';
import { getMarketSchema, listProductSchema, orderHistorySchema, type Credentials } from './schemas';

/** The eCommerce family (docs/api.md, eCommerce): `env` + `key` in the JSON body authenticate each call. */
export const ecommerceRoutes: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  // preHandler runs after validation: every route's body schema includes the credentials.
  app.addHook('preHandler', async (request) => {
    const body = request.body as Credentials;
    request.tenant = await services.authenticator.fromApiKey(body.env, body.key, request.ip);
  });

  app.post('/api/v2/product/list-product.php', { schema: listProductSchema }, async (request) => {
    const { language, v, schema, marketId, printType } = request.body;
    return services.catalogue.list(contextOf(request, services.em), { language: languageOf(language), v, schema, marketId, printType });
  });

  app.post('/api/v2/misc/get-market.php', { schema: getMarketSchema }, async (request) => {
    const { language, latitude, longitude } = request.body;
    return listMarkets(contextOf(request, services.em), { language: languageOf(language), latitude, longitude });
  });

  app.post('/api/v2/user/get-order-history.php', { schema: orderHistorySchema }, async (request) => {
    const { email, cursor, language } = request.body;
    return services.orders.history(contextOf(request, services.em), { email, cursor, language: languageOf(language) });
  });
};
