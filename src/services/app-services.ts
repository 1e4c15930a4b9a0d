import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import { Authenticator } from './tenancy/authenticate';
import { CatalogueService } from './catalogue/catalogue-service';

/** The services every transport shares, built once per process. */
export interface AppServices {
  /** The root EntityManager; transports fork it per request. */
  em: EntityManager;
  authenticator: Authenticator;
  catalogue: CatalogueService;
}

export function createAppServices(config: Config, em: EntityManager, pepper: string): AppServices {
  return {
    em,
    authenticator: new Authenticator(em, pepper),
    catalogue: new CatalogueService(`${config.publicUrl}/assets/catalogue/`),
  };
}
