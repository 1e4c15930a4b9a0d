import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppServices } from '../../services/app-services';
import { contextOf } from '../request-context';
import { languageOf } from '../../domain/localized';
import { listMarkets } from '../../services/markets/market-service';
import { isEnvironment } from '../../domain/environment';
import { getMarketSchema, listProductSchema, orderHistorySchema } from './schemas';

/** The env + key of a body, whatever its shape. */
function credentialsOf(body: unknown): { env?: unknown; key?: unknown } {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as { env?: unknown; key?: unknown })
    : {};
}

/** The eCommerce family (docs/api.md, eCommerce): `env` + `key` in the JSON body authenticate each call. */
export const ecommerceRoutes: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  // Before the rate limit (a route hook, so after this one) and before validation: a valid key
  // spends its shop's one budget, shared with its X-Service credential (budgetKeyOf). A body
  // without a well-formed env + key authenticates nothing here; it spends its address's budget and
  // validation answers it 400 naming the field (every route's body schema includes the credentials).
  app.addHook('preValidation', async (request) => {
    const { env, key } = credentialsOf(request.body);
    if (isEnvironment(env) && typeof key === 'string' && key)
      request.tenant = await services.authenticator.fromApiKey(env, key, request.ip);
  });

  app.post('/api/v2/product/list-product.php', { schema: listProductSchema }, async (request) => {
    const { language, v, schema, marketId, printType } = request.body;
    return services.catalogue.list(contextOf(request, services.em), {
      language: languageOf(language),
      v,
      schema,
      marketId,
      printType,
    });
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
