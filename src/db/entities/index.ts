export { Client } from './Client';
export { ClientCredential } from './ClientCredential';
export { EndUser } from './EndUser';
export { Currency } from './Currency';
export { Market } from './Market';
export { Category } from './Category';
export { Product } from './Product';
export { ProductAttribute } from './ProductAttribute';
export { ProductPrice } from './ProductPrice';
export { StatusEvent } from './StatusEvent';
export { Project } from './Project';
export { Photo } from './Photo';
export { Order } from './Order';
export { OrderLine } from './OrderLine';
export { Campaign } from './Campaign';
export { CampaignRow } from './CampaignRow';
export { WebhookEndpoint } from './WebhookEndpoint';
export { WebhookDelivery } from './WebhookDelivery';
export { WebhookAttempt } from './WebhookAttempt';
export { IdempotencyRecord } from './IdempotencyRecord';
export { PendingFileMove } from './PendingFileMove';
export { Quote } from './Quote';
export { EventRecord } from './EventRecord';
export { Proof } from './Proof';
export { PrintSettings } from './PrintSettings';
export { PartnerAccount } from './PartnerAccount';
export { BookEdit } from './BookEdit';

import { Client } from './Client';
import { ClientCredential } from './ClientCredential';
import { EndUser } from './EndUser';
import { Currency } from './Currency';
import { Market } from './Market';
import { Category } from './Category';
import { Product } from './Product';
import { ProductAttribute } from './ProductAttribute';
import { ProductPrice } from './ProductPrice';
import { StatusEvent } from './StatusEvent';
import { Project } from './Project';
import { Photo } from './Photo';
import { Order } from './Order';
import { OrderLine } from './OrderLine';
import { Campaign } from './Campaign';
import { CampaignRow } from './CampaignRow';
import { WebhookEndpoint } from './WebhookEndpoint';
import { WebhookDelivery } from './WebhookDelivery';
import { WebhookAttempt } from './WebhookAttempt';
import { IdempotencyRecord } from './IdempotencyRecord';
import { PendingFileMove } from './PendingFileMove';
import { Quote } from './Quote';
import { Proof } from './Proof';
import { EventRecord } from './EventRecord';
import { PrintSettings } from './PrintSettings';
import { PartnerAccount } from './PartnerAccount';
import { BookEdit } from './BookEdit';

export const ENTITIES = [
  Client,
  ClientCredential,
  EndUser,
  Currency,
  Market,
  Category,
  Product,
  ProductAttribute,
  ProductPrice,
  StatusEvent,
  Project,
  Photo,
  Order,
  OrderLine,
  Campaign,
  CampaignRow,
  WebhookEndpoint,
  WebhookDelivery,
  WebhookAttempt,
  IdempotencyRecord,
  PendingFileMove,
  Quote,
  EventRecord,
  Proof,
  PrintSettings,
  PartnerAccount,
  BookEdit,
];
