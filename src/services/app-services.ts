import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { WorkflowEngine } from '../domain/flows';
import type { FileStore } from '../storage/file-store';
import { Authenticator } from './tenancy/authenticate';
import { AuthFailureLimiter } from './tenancy/auth-failures';
import { RequestBudget } from './tenancy/request-budget';
import { LimitStore } from './tenancy/limit-store';
import { ProcessSlots, SharedSlots, type SocketSlots } from './tenancy/socket-slots';
import type { CredentialCache } from './tenancy/credential-cache';
import { CatalogueService } from './catalogue/catalogue-service';
import { ProjectService } from './projects/project-service';
import { OrderService } from './orders/order-service';
import { CampaignService } from './campaigns/campaign-service';
import { WebhookService } from './webhooks/webhook-service';
import { EditorService } from './editor/editor-service';
import { EditorLinks } from './projects/editor-links';
import { IdempotencyStore } from './idempotency/idempotency-store';
import { ProductionService } from './production/production-service';
import { RoutingService } from './routing/routing-service';
import { PartnerService } from './partners/partner-service';
import type { PrinterRegistry } from '../printers/printer-registry';
import { UploadService } from './uploads/upload-service';
import { createUploadStore, type UploadStore } from '../storage/upload-store';

/** The services every transport shares, built once per process. */
export interface AppServices {
  /** The root EntityManager; transports fork it per request. */
  em: EntityManager;
  files: FileStore;
  authenticator: Authenticator;
  /** The rate limit every transport spends from (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW). */
  requestBudget: RequestBudget;
  /** Where the published limits are counted (LIMITS_STORE): shared by every process of the database, or per process. */
  limitStore: LimitStore;
  /** The graphql-ws connections and subscriptions each client holds, in the same store. */
  socketSlots: SocketSlots;
  catalogue: CatalogueService;
  projects: ProjectService;
  orders: OrderService;
  campaigns: CampaignService;
  webhooks: WebhookService;
  editor: EditorService;
  idempotency: IdempotencyStore;
  production: ProductionService;
  /** Photo uploads over tus (docs/api.md, Uploads) and the store their unfinished bytes live in. */
  uploads: UploadService;
  uploadStore: UploadStore;
  routing: RoutingService;
  /** Print partners: the shops' accounts, their printers (for routing) and the partners' callbacks. */
  partners: PartnerService;
}

export interface AppServiceDeps {
  config: Config;
  em: EntityManager;
  pepper: string;
  files: FileStore;
  engine: WorkflowEngine;
  /** The printers, for cancels passed on to a printer that holds the job. */
  printers: PrinterRegistry;
  log: Logger;
  /** Kept in step with credential changes by its listener (service.ts); absent, every check queries. */
  credentialCache?: CredentialCache;
}

export function createAppServices({
  config,
  em,
  pepper,
  files,
  engine,
  printers,
  log,
  credentialCache,
}: AppServiceDeps): AppServices {
  const { limits } = config;
  const editorLinks = new EditorLinks(config.frontendUrl, pepper);
  const editor = new EditorService(em, editorLinks);
  const shared = limits.store === 'postgres';
  const limitStore = shared ? LimitStore.postgres(em.getKnex()) : LimitStore.memory();
  const uploadStore = createUploadStore(config);
  const orders = new OrderService({ config, engine, files, log, editorLinks, em, printers });
  return {
    em,
    files,
    authenticator: new Authenticator(
      em,
      pepper,
      new AuthFailureLimiter(limits.authFailuresMax, limits.authFailuresWindowMs, limitStore),
      editor,
      credentialCache,
    ),
    requestBudget: new RequestBudget(limits.rateLimitMax, limits.rateLimitWindowMs, limitStore),
    limitStore,
    socketSlots: shared ? new SharedSlots(em.getKnex(), log) : new ProcessSlots(),
    catalogue: new CatalogueService(`${config.publicUrl}/assets/catalogue/`),
    projects: new ProjectService({ config, engine, files, log, editorLinks }),
    orders,
    campaigns: new CampaignService({ config, engine }),
    webhooks: new WebhookService({ config, engine, pepper }),
    editor,
    idempotency: new IdempotencyStore(config.durations.idempotencyRetentionMs),
    uploads: new UploadService({ em, config, engine, files, uploads: uploadStore, limitStore }),
    uploadStore,
    production: new ProductionService({
      files,
      proofTtlMs: config.durations.proofTtlMs,
      printOutput: config.printOutput,
      log,
    }),
    routing: new RoutingService(),
    partners: new PartnerService({ config, em, pepper, files, orders }),
  };
}
