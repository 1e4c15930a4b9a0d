import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One span as an OTLP/HTTP JSON export carries it, with its process's resource attributes flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string }[];
  /** `service.name`, `photobook.role`, ... of the process that exported it. */
  resource: Record<string, unknown>;
  scope: string;
}

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it (the exporter posts to `/v1/traces`). */
  url: string;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}

interface OtlpKeyValue {
  key: string;
  value: AnyValue;
}

/** OTLP/JSON's AnyValue: `{ stringValue }`, `{ intValue }` (a string for 64-bit), `{ boolValue }`, ... */
type AnyValue = Record<string, unknown>;
type Link = { traceId: string; spanId: string };

function attributeValue(value: AnyValue): unknown {
  if ('intValue' in value) return Number(value.intValue);
  if ('arrayValue' in value) return ((value.arrayValue as { values?: AnyValue[] }).values ?? []).map(attributeValue);
  return Object.values(value)[0];
}

const attributesOf = (list: OtlpKeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map(({ key, value }) => [key, attributeValue(value)]));

/**
 * A trace collector's OTLP/HTTP endpoint on 127.0.0.1: takes `POST /v1/traces` with a JSON body (what
 * @opentelemetry/exporter-trace-otlp-http sends), decodes the spans and answers as a collector does.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      const json = String(request.headers['content-type']).includes('json');
      if (request.method !== 'POST' || path !== '/v1/traces' || !json) {
        response.writeHead(415, { 'content-type': 'text/plain' }).end('POST /v1/traces with a JSON body only');
        return;
      }
      const raw = Buffer.concat(chunks);
      const gzipped = request.headers['content-encoding'] === 'gzip';
      const body = JSON.parse((gzipped ? gunzipSync(raw) : raw).toString('utf8'));
      for (const resourceSpans of body.resourceSpans ?? []) {
        const resource = attributesOf(resourceSpans.resource?.attributes);
        for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
          for (const span of scopeSpans.spans ?? []) {
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
              name: span.name,
              kind: span.kind,
              attributes: attributesOf(span.attributes),
              links: (span.links ?? []).map(({ traceId, spanId }: Link) => ({ traceId, spanId })),
              resource,
              scope: scopeSpans.scope?.name ?? '',
            });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
