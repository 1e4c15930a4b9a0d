import { Type } from 'typebox';
import { problemResponses, type OpenApiTag } from '../shared-schemas';

/** The printers family: status events print service providers send, signed, not from clients. */

export const PSP_TAGS = {
  printers: {
    name: 'printers',
    description: 'Status events from print service providers; authenticated by their webhook signature',
  },
} as const satisfies Record<string, OpenApiTag>;

export const printerEventSchema = {
  operationId: 'receivePrinterEvent',
  tags: [PSP_TAGS.printers.name],
  summary: 'A printer reports the status of a print job',
  description:
    "Signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature) with the printer's secret. Body: {jobId, status, trackingUrl?, occurredAt?}.",
  params: Type.Object({
    psp: Type.String({ pattern: '^[A-Za-z0-9_-]{1,50}$', description: 'The printer (print service provider) name' }),
  }),
  response: {
    202: Type.Object({
      accepted: Type.Boolean(),
      status: Type.String({ description: 'The status of the print job after the event' }),
    }),
    ...problemResponses(400, 401, 404),
  },
};

export const partnerCallbackSchema = {
  operationId: 'receivePartnerCallback',
  tags: [PSP_TAGS.printers.name],
  summary: "A print partner reports an order's status or tracking",
  description:
    "The callback URL of one shop's partner account (Prodigi, Gelato or Lulu), as the partner posts it. " +
    'Not authenticated by X-Service: the secret token in the URL names the account, and the callback is checked as ' +
    "the partner documents it (Lulu: Lulu-HMAC-SHA256; Prodigi and Gelato sign nothing, so the order is read back from the partner's API).",
  params: Type.Object({
    partner: Type.Union([Type.Literal('prodigi'), Type.Literal('gelato'), Type.Literal('lulu')], {
      description: 'The print partner',
    }),
    token: Type.String({ pattern: '^[A-Za-z0-9_-]{20,64}$', description: "The account's callback token" }),
  }),
  response: {
    202: Type.Object({
      accepted: Type.Boolean(),
      status: Type.String({ description: 'The status of the order line after the callback' }),
      applied: Type.Boolean({ description: 'false when the callback said nothing new about a job the line holds' }),
    }),
    ...problemResponses(400, 401, 404),
  },
};
