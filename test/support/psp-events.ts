import { unixSeconds, WebhookSigner, type StandardWebhookHeaders } from '../../src/printers/standard-webhooks';

export interface SignPspEventOptions {
  secret: string;
  /** `webhook-id`: unique per event, the same on retries of it. */
  id: string;
  /** Unix seconds; default now. */
  timestamp?: number;
  /** The exact body that will be sent. */
  body: string | Buffer;
}

/** The headers a printer sends with an event: what our tests' printers sign their events with. */
export function signPspEvent(options: SignPspEventOptions): StandardWebhookHeaders {
  const signer = new WebhookSigner(options.secret, 'the printer webhook secret');
  return signer.headers(options.id, options.timestamp ?? unixSeconds(), options.body);
}
