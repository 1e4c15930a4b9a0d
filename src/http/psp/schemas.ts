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
