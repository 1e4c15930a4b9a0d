import { randomBytes } from 'node:crypto';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import type { FastifyInstance } from 'fastify';
import {
  GraphQLError,
  specifiedRules,
  validate,
  type ExecutionResult,
  type FormattedExecutionResult,
  type GraphQLFormattedError,
} from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { IncomingMessage } from 'node:http';
import type { RateLimiterRes } from 'rate-limiter-flexible';
import { WebSocket, WebSocketServer } from 'ws';
import type { AppServices } from '../services/app-services';
import type { Presented } from '../services/tenancy/authenticate';
import { budgetKeyOf } from '../services/tenancy/request-budget';
import { createRequestContext, type RequestContext } from '../services/context';
import type { StatusEventBus } from '../events/status-event-bus';
import { DomainError, RateLimitedError } from '../domain/errors';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_CODE,
  DATABASE_UNAVAILABLE_MESSAGE,
} from '../domain/database-unavailable';
import { isDatabaseUnavailable } from '../services/database-unavailable';
import type { GraphqlContext } from './context';
import { graphqlSchema } from './schema';
import { createLoaders, type Loaders } from './loaders';
import { operationRules, unsafeVariablesError, type OperationLimits } from './operation-guards';
import { idempotencyPlugin } from './idempotency-key';
import { SocketCaps, TOO_MANY_CONNECTIONS, type SocketLimits } from './socket-caps';
import { subscribeSharingResults } from './shared-subscription-results';
import { sharedDocumentParser } from './shared-documents';
import type { PushTarget } from './pushed-results';
import { startHeartbeat } from './socket-heartbeat';
import { EditorSocketWatch } from './editor-socket-watch';

export const GRAPHQL_PATH = '/graphql';
/** How often subscription sockets are pinged: graphql-ws's own default. */
const KEEP_ALIVE_MS = 12_000;

/**
 * The GraphQL servers of /graphql: Apollo (started, for queries and mutations; the HTTP route that
 * hands it requests is src/http/graphql/routes.ts) and graphql-ws for subscriptions on the same
 * port and path. Both authenticate with the PWA credentials.
 */
export async function startGraphqlServer(
  app: FastifyInstance,
  services: AppServices,
  bus: StatusEventBus,
  limits: OperationLimits & SocketLimits & SocketDoorLimits & { hideSchemaDetails: boolean },
): Promise<ApolloServer<GraphqlContext>> {
  // In production no error names fields or types the caller did not ask for ("Did you mean …?"): it
  // would map the schema for someone without introspection. Apollo strips them from HTTP answers.
  const clientErrors = limits.hideSchemaDetails
    ? withoutSuggestions
    : (errors: readonly GraphQLFormattedError[]) => errors;
  const schema = await graphqlSchema();
  const rules = operationRules(limits);
  const caps = new SocketCaps(limits, services.socketSlots);
  const connectAttempts = services.limitStore.windowCounter({
    keyPrefix: 'ws-connects',
    points: limits.wsConnectsPerAddress,
    windowMs: limits.rateLimitWindowMs,
  });
  /** Per socket: the client it counts against, the ids of its running operations, and how results are written to it. */
  type SocketExtra = {
    tenant?: GraphqlContext['ctx']['tenant'];
    projectScope?: string;
    callerKey?: string;
    running?: Set<string>;
    /** Set once graphql-ws closed the socket: a slot taken while it closed is given back at once. */
    closed?: boolean;
    /** An editor socket's watch: it closes the socket once the link ends (transfer, delete, expiry). */
    watch?: EditorSocketWatch;
    send?: (text: string) => void;
  };
  /** Each subscription's context names the socket and operation its results are pushed to. */
  const pushTargets = new WeakMap<GraphqlContext, PushTarget>();

  // A larger frame closes the socket with 1009 as its length arrives: never buffered, never parsed.
  const sockets = new WebSocketServer({ noServer: true, maxPayload: limits.wsMaxPayloadBytes });
  const wsServer = useServer<Record<string, unknown>, SocketExtra>(
    {
      schema,
      parse: sharedDocumentParser(),
      validate: (validatedSchema, document) => validate(validatedSchema, document, [...specifiedRules, ...rules]),
      subscribe: subscribeSharingResults(
        ({ ctx }: GraphqlContext) => `${ctx.tenant.clientId}:${ctx.tenant.env}:${ctx.projectScope ?? ''}`,
        {
          targetOf: (context) => pushTargets.get(context),
          format: formatResult,
        },
      ),
      onSubscribe: async (socketContext, id, payload) => {
        const extra = socketContext.extra as SocketExtra;
        const { spent, resetMs } = await services.requestBudget.spend(extra.callerKey!);
        if (spent > services.requestBudget.max)
          return [rateLimitedError(services.requestBudget.max, limits.rateLimitWindowMs, resetMs)];
        const unsafe = unsafeVariablesError(payload.variables);
        if (unsafe) return [unsafe];
        // An editor link may have ended since the socket opened (or while it was authenticated, before its watch listened).
        if (extra.watch && !(await extra.watch.stillOpen()))
          return [new GraphQLError('the editor link ended', { extensions: { code: 'UNAUTHENTICATED' } })];
        const refused = await caps.startOperation(extra.callerKey!);
        if (refused) return [refused];
        if (extra.closed) {
          caps.endOperation(extra.callerKey!);
          return [new GraphQLError('the connection closed')]; // sent to no one: graphql-ws drops it
        }
        extra.running!.add(id);
        return undefined;
      },
      onComplete: (socketContext, id) => {
        const extra = socketContext.extra as SocketExtra;
        if (extra.running?.delete(id)) caps.endOperation(extra.callerKey!);
      },
      onClose: (socketContext) => {
        const extra = socketContext.extra as SocketExtra;
        extra.closed = true;
        extra.watch?.stop();
        if (extra.callerKey) caps.closeConnection(extra.callerKey, extra.running?.size ?? 0);
      },
      onConnect: async (socketContext) => {
        try {
          const { request } = socketContext.extra;
          // An editor session works as the project's client, with caps and budget of its own: an editor link cannot use up the shop's.
          const identity = await services.authenticator.identify(
            presentedBy(request, socketContext.connectionParams),
            limits.addressOf(request),
            { editor: true },
          );
          const { tenant } = identity;
          const extra = socketContext.extra as SocketExtra & { socket: { close(code: number, reason: string): void } };
          const callerKey = budgetKeyOf(identity);
          if (!(await caps.openConnection(callerKey))) {
            // Closed first with our own code, so the client learns why; graphql-ws's 4403 then finds it closing.
            extra.socket.close(TOO_MANY_CONNECTIONS, 'Too many connections for this client');
            return false;
          }
          if (extra.closed) {
            caps.closeConnection(callerKey, 0);
            return false;
          }
          Object.assign(extra, { tenant, projectScope: identity.projectScope, callerKey, running: new Set<string>() });
          if (identity.editorSession)
            extra.watch = new EditorSocketWatch(identity.editorSession, extra.socket, bus, services.editor);
          // The upgrade request and the connection's credentials are read only here: not kept for the
          // socket's life (nor the secret in memory). Set rather than deleted: a deleted property
          // turns the object into a dictionary, larger for every socket.
          (extra as { request?: unknown }).request = undefined;
          (socketContext as { connectionParams?: unknown }).connectionParams = undefined;
          return true;
        } catch (error) {
          if (error instanceof RateLimitedError) {
            socketContext.extra.socket.close(
              TOO_MANY_CONNECTIONS,
              `${error.code}: retry in ${error.retryAfterSeconds} s`,
            );
            return false;
          }
          if (error instanceof DomainError) return false; // graphql-ws closes with 4403 Forbidden
          if (isDatabaseUnavailable(error)) {
            // 1013 Try Again Later, rather than graphql-ws's 4500 with the driver's message as reason.
            socketContext.extra.socket.close(
              1013,
              `${DATABASE_UNAVAILABLE_CODE}: retry in ${DATABASE_RETRY_AFTER_SECONDS} s`,
            );
            return false;
          }
          throw error;
        }
      },
      connectionInitWaitTimeout: limits.wsConnectionInitTimeoutMs,
      // Subscriptions answer errors in the same vocabulary as queries (codes, no internals).
      onError: (_ctx, _id, _payload, errors) =>
        clientErrors(errors.map((error) => formatGraphqlError(error.toJSON(), error))),
      onNext: (_ctx, _id, _payload, _args, result) => {
        if (!result.errors) return undefined;
        const formatted = formatResult(result);
        return { ...formatted, errors: clientErrors(formatted.errors ?? []) };
      },
      context: (socketContext, id): GraphqlContext => {
        const extra = socketContext.extra as SocketExtra & { socket: WebSocket };
        // Not randomUUID: Node builds it by concatenation, a chain of string pieces that every
        // subscription's context would keep for its whole life (docs/performance.md).
        const requestId = `ws-${randomBytes(12).toString('hex')}`;
        const context = graphqlContext(
          createRequestContext(services.em, extra.tenant!, requestId, extra.projectScope),
          services,
          bus,
        );
        const { socket } = extra;
        extra.send ??= (text) => {
          if (socket.readyState === WebSocket.OPEN) socket.send(text);
        };
        pushTargets.set(context, { id, send: extra.send });
        return context;
      },
    },
    sockets,
    0, // graphql-ws's keep-alive is a timer per socket: one heartbeat for all of them instead
  );
  const heartbeat = startHeartbeat(sockets, KEEP_ALIVE_MS);
  app.server.on('upgrade', (request, socket, head) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== GRAPHQL_PATH) {
      socket.destroy();
      return;
    }
    // Connection attempts per address, before any of the upgrade is read: a flood of sockets is refused at the door.
    connectAttempts.consume(limits.addressOf(request)).then(
      () => sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request)),
      (refused: RateLimiterRes) => {
        const retryAfter = Math.max(1, Math.ceil(refused.msBeforeNext / 1000));
        socket.end(
          `HTTP/1.1 429 Too Many Requests\r\nRetry-After: ${retryAfter}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
        );
      },
    );
  });

  const drainSockets: ApolloServerPlugin<GraphqlContext> = {
    async serverWillStart() {
      return {
        async drainServer() {
          heartbeat.stop();
          await wsServer.dispose();
          await services.socketSlots.close();
        },
      };
    },
  };

  const apollo = new ApolloServer<GraphqlContext>({
    schema,
    // Cache control (installed unless disabled) would have Apollo wrap every field resolver of the
    // schema, on every request, to track cache hints that nothing here sets or reads.
    plugins: [
      fastifyApolloDrainPlugin(app),
      drainSockets,
      idempotencyPlugin(),
      unavailableAs503,
      ApolloServerPluginCacheControlDisabled(),
    ],
    // X-Service is a non-simple header, so a browser must preflight any request carrying it:
    // requiring it (or Apollo's own headers) keeps CSRF prevention without blocking real clients.
    csrfPrevention: {
      requestHeaders: [
        'x-service',
        'x-editor-project',
        'x-editor-key',
        'x-apollo-operation-name',
        'apollo-require-preflight',
      ],
    },
    includeStacktraceInErrorResponses: false,
    hideSchemaDetailsFromClientErrors: limits.hideSchemaDetails,
    validationRules: rules,
    formatError: formatGraphqlError,
  });
  await apollo.start();

  return apollo;
}

/** The WebSocket door's limits (docs/operations.md, Limits), as configured. */
export interface SocketDoorLimits {
  wsMaxPayloadBytes: number;
  wsConnectionInitTimeoutMs: number;
  /** Connection attempts per address and RATE_LIMIT_WINDOW. */
  wsConnectsPerAddress: number;
  rateLimitWindowMs: number;
  /** A client's address as TRUST_PROXY says it (src/http/client-address.ts). */
  addressOf(request: IncomingMessage): string;
}

/**
 * What a socket presents: `connection_init`'s `accessKey` + `accessSecret` in place of the upgrade
 * request's X-Service header, its `editorProject` and `editorKey` in place of X-Editor-Project and
 * X-Editor-Key (the Authenticator decides which wins).
 */
function presentedBy(request: IncomingMessage, params: Record<string, unknown> | undefined): Presented {
  const header = request.headers['x-service'];
  const clientCredential =
    params && 'accessKey' in params ? { payload: params } : header !== undefined ? { header } : undefined;
  const editorProject =
    params && 'editorProject' in params ? params.editorProject : request.headers['x-editor-project'];
  const editorKey = params && 'editorKey' in params ? params.editorKey : request.headers['x-editor-key'];
  return { ...(clientCredential ? { clientCredential } : {}), editorProject, editorKey };
}

/** A graphql-ws operation over its client's RequestBudget: the operation's error, as REST's 429. */
function rateLimitedError(max: number, windowMs: number, resetMs: number): GraphQLError {
  const retryAfterSeconds = Math.max(1, Math.ceil(resetMs / 1000));
  return new GraphQLError(
    `more than ${max} requests in ${Math.round(windowMs / 1000)}s from this client; retry in ${retryAfterSeconds}s`,
    {
      extensions: { code: 'RATE_LIMITED', retryAfterSeconds },
    },
  );
}

/**
 * A response whose errors include an unreachable database answers HTTP 503 with `Retry-After`, as
 * REST does, so clients and proxies retry it rather than treat it as a failure of the query.
 */
const unavailableAs503: ApolloServerPlugin<GraphqlContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        const errors = response.body.kind === 'single' ? response.body.singleResult.errors : undefined;
        if (!errors?.some((error) => error.extensions?.code === DATABASE_UNAVAILABLE_CODE)) return;
        response.http.status = 503;
        response.http.headers.set('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      },
    };
  },
};

/** What every resolver receives, for one request or one subscription connection. */
export function graphqlContext(
  ctx: RequestContext,
  services: AppServices,
  bus: StatusEventBus,
  receivedAt = Date.now(),
): GraphqlContext {
  return new LazyLoadersContext(ctx, services, bus, receivedAt);
}

/**
 * Loaders are made on first use: an idle subscription never batches, and DataLoaders held by every
 * idle subscription would cost memory for nothing (docs/performance.md). The getter lives on the
 * prototype because Apollo copies each request's context with `Object.assign`, which would call an
 * own getter and make them.
 */
class LazyLoadersContext implements GraphqlContext {
  private madeLoaders?: Loaders;

  constructor(
    readonly ctx: RequestContext,
    readonly services: AppServices,
    readonly bus: StatusEventBus,
    readonly receivedAt: number,
  ) {}

  get loaders(): Loaders {
    return (this.madeLoaders ??= createLoaders(this.ctx));
  }
}

/** Errors without GraphQL's "Did you mean …?" suggestions, as Apollo's hideSchemaDetailsFromClientErrors words it. */
function withoutSuggestions(errors: readonly GraphQLFormattedError[]): GraphQLFormattedError[] {
  return errors.map((error) => ({ ...error, message: error.message.replace(/ ?Did you mean(.+?)\?$/, '') }));
}

/** A result with its errors in the vocabulary of queries, as subscribers receive it. */
function formatResult(result: ExecutionResult): FormattedExecutionResult {
  return result.errors
    ? { ...result, errors: result.errors.map((error) => formatGraphqlError(error.toJSON(), error)) }
    : (result as FormattedExecutionResult);
}

/** Domain errors keep their code and field paths; unexpected errors never leak internals. */
function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (original instanceof DomainError) {
    return {
      ...formatted,
      message: original.message,
      extensions: { code: original.code, errors: original.errors, ...original.members },
    };
  }
  if (isDatabaseUnavailable(original)) {
    return {
      message: DATABASE_UNAVAILABLE_MESSAGE,
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: DATABASE_UNAVAILABLE_CODE },
    };
  }
  if (original && !(original instanceof GraphQLError) && formatted.extensions?.code === 'INTERNAL_SERVER_ERROR') {
    return {
      message: 'internal error; it has been logged',
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: 'INTERNAL' },
    };
  }
  return formatted;
}
