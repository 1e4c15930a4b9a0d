import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { AppServices } from '../services/app-services';
import type { StatusEventBus } from '../events/status-event-bus';
import { registerGraphql } from './graphql/routes';
import { ecommerceRoutes } from './ecommerce/routes';
import { pwaRoutes } from './pwa/routes';
import { editorRoutes } from './editor/routes';
import { EDITOR_TAGS } from './editor/schemas';
import { fileRoutes } from './files/routes';
import { uploadRoutes } from './uploads/routes';
import { pspRoutes } from './psp/routes';
import { healthRoutes } from './health/routes';
import { problemRoutes } from './problems/routes';
import { webRoutes } from '../web/routes';
import { registerGraphqlExplorer } from '../web/explorer-routes';
import { OneLinePerRequest, registerObservability, requestIdOf } from './observability';
import { problem, sendProblem } from './problem';
import { Problem, type OpenApiTag } from './shared-schemas';
import { registerRateLimits } from './rate-limits';
import { clientAddresses } from './client-address';
import { discardUnreadBodies } from './unread-bodies';
import { requestTimeoutOptions } from './request-timeouts';
import { honourIdempotencyKeys } from './idempotency';
import { refuseUnsafeText, requestValidatorCompiler } from './request-validation';
import { registerSecurityHeaders } from './security-headers';
import { HEALTH_TAGS } from './health/schemas';
import { ECOMMERCE_TAGS } from './ecommerce/schemas';
import { PWA_TAGS } from './pwa/schemas';
import { PSP_TAGS } from './psp/schemas';

export interface AppDependencies {
  config: Config;
  services: AppServices;
  bus: StatusEventBus;
  log: Logger;
}

/** The tags the route families declare beside their schemas, alphabetical as documentation tools list them. */
const ROUTE_FAMILY_TAGS: OpenApiTag[] = [HEALTH_TAGS, ECOMMERCE_TAGS, PWA_TAGS, PSP_TAGS, EDITOR_TAGS]
  .flatMap((family) => Object.values(family))
  .sort((a, b) => a.name.localeCompare(b.name));

/** The HTTP face of the service: REST facade, GraphQL, docs and health (metrics only with METRICS_TOKEN). */
export async function buildApp({ config, services, bus, log }: AppDependencies): Promise<FastifyInstance> {
  const addresses = clientAddresses(config.trustProxy);
  const app = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    genReqId: requestIdOf,
    trustProxy: addresses.trustProxy,
    logController: new OneLinePerRequest(),
    // Routes that authenticate by header before reading the body raise it to BODY_LIMIT (authenticate-request.ts).
    bodyLimit: Math.min(config.limits.unauthenticatedBodyLimitBytes, config.limits.bodyLimitBytes),
    ...requestTimeoutOptions(config.limits),
    // JSON.parse keeps `__proto__` as a plain own key (it sets no prototype); refuseUnsafeText then
    // refuses it, and `constructor` and `prototype`, naming the field, before any hook or handler
    // reads the body: one rule with GraphQL's (src/domain/safe-text.ts) rather than the parser's
    // own refusal, which answers a bare "invalid JSON" without saying where.
    onProtoPoisoning: 'ignore',
    onConstructorPoisoning: 'ignore',
  }).withTypeProvider<TypeBoxTypeProvider>();
  discardUnreadBodies(app);
  app.setValidatorCompiler(requestValidatorCompiler());
  refuseUnsafeText(app);
  // Every endpoint speaks JSON: a text/plain body is a 415, not a string that fails validation.
  app.removeContentTypeParser('text/plain');

  app.setErrorHandler((error, request, reply) => sendProblem(request, reply, error));
  app.addSchema(Problem);
  await registerSecurityHeaders(app);
  await registerRateLimits(app, services.requestBudget);
  // Unknown routes spend their address's budget too: probing paths is not free.
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, (request, reply) =>
    reply
      .status(404)
      .type('application/problem+json')
      .send({
        ...problem(
          404,
          'NO_SUCH_ROUTE',
          `${request.method} ${request.url.split('?')[0]} is not an endpoint of this service`,
        ),
        requestId: request.id,
      }),
  );
  honourIdempotencyKeys(app, services);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Photobook service API',
        version: '2',
        description:
          'PWA backend API (X-Service header) and eCommerce API (env + key in the body). Errors are RFC 9457 problem details.',
        contact: { name: 'Photobook service', url: `${config.publicUrl}/docs` },
      },
      servers: [{ url: config.publicUrl, description: 'This deployment (PUBLIC_URL)' }],
      components: {
        securitySchemes: {
          XService: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Service',
            description: 'JSON {"accessKey": "...", "accessSecret": "..."}',
          },
          XEditorProject: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Editor-Project',
            description: "The project id of an editor link (with X-Editor-Key): that one project's book only",
          },
          XEditorKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Editor-Key',
            description: "The editor link's editorKey",
          },
        },
      },
      tags: ROUTE_FAMILY_TAGS,
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // Its own page CSP (hashes of its inline parts), not framable, and no upgrade of plain-HTTP deployments.
    staticCSP: true,
    transformStaticCSP: (header) =>
      header.replace("frame-ancestors 'self'", "frame-ancestors 'none'").replace(/\s*upgrade-insecure-requests;?/, ''),
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  registerObservability(app, { metricsToken: config.metrics.token });
  await app.register(healthRoutes, {
    em: services.em,
    store: { files: services.files, minFreeBytes: config.limits.storeMinFreeBytes },
  });
  await app.register(ecommerceRoutes, { services });
  await app.register(pwaRoutes, { services, bodyLimit: config.limits.bodyLimitBytes });
  await app.register(editorRoutes, { services, bodyLimit: config.limits.bodyLimitBytes });
  await app.register(fileRoutes, { files: services.files });
  await app.register(uploadRoutes, { services, publicUrl: config.publicUrl, bodyLimit: config.limits.bodyLimitBytes });
  await app.register(pspRoutes, { services, secrets: config.pspWebhookSecrets });
  await app.register(problemRoutes);
  if (config.graphqlExplorer) await registerGraphqlExplorer(app, log);
  await registerGraphql(app, services, bus, config.limits, addresses.addressOf, config.production);
  await app.register(webRoutes, {
    publicUrl: config.publicUrl,
    shopOriginsOf: (projectId) => services.editor.shopOriginsOf(projectId),
  });
  return app;
}
