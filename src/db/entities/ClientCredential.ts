import { BigIntType, Entity, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { TenantOwned } from './TenantOwned';

/**
 * One environment's credentials of a client. Secrets are stored only as keyed SHA-256 digests:
 * they are long random strings, so a fast keyed hash is as strong as a slow password hash here.
 */
@Entity({ tableName: 'client_credentials' })
@Unique({ properties: ['client', 'env'] })
export class ClientCredential extends TenantOwned {
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string & Opt;

  @Property({ type: 'string', length: 64, unique: true })
  accessKey!: string;

  @Property({ type: 'string', length: 64 })
  accessSecretDigest!: string;

  @Property({ type: 'string', length: 64, unique: true })
  apiKeyDigest!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  issuedAt: Date & Opt = new Date();
}
