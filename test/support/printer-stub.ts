import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signPspEvent } from './psp-events';

/** The statuses a live printer reports after accepting a job, in order. */
const WALK = ['accepted', 'printing', 'printed', 'delivering', 'complete'];

export interface PrinterStub {
  url: string;
  /** Every job request received, in order (a retried request appears again under the same key). */
  requests: { jobKey: string; idempotencyKey: string; at: number; traceparent?: string }[];
  /** Jobs created: one per distinct job key, however often it was sent. */
  jobs: Map<string, string>;
  /**
   * The printer restarts and forgets its jobs: it numbers new jobs from 1 again, reissuing ids it
   * gave before (the walks under way go on).
   */
  restart(): void;
  close(): Promise<void>;
}

export interface PrinterStubOptions {
  /** The service's base URL now (it may move between restarts), where status events are posted. */
  serviceUrl: () => string;
  /** `psp=whsec_…` secret the events are signed with. */
  eventSecret: string;
  psp?: string;
  /** Milliseconds to keep the nth request (1-based) waiting before answering; 0 answers at once. */
  delayOf?: (nth: number) => number;
  /** The statuses reported for the job numbered `n` (1-based, since the last restart); default the whole walk to complete. */
  walkOf?: (n: number) => string[];
  /** Which of the job's own fields each event echoes besides `jobId`: none by default. */
  echo?: ('jobKey' | 'orderId')[];
}

/**
 * A live printer (PSP) on 127.0.0.1 for PRINTER=http: takes signed job requests, creates each job
 * once per `Idempotency-Key` (a repeat answers the job it already made, as the PSP contract
 * requires), and then reports the job's progress to the service's printer-event endpoint, signed,
 * retrying each event until the service takes it (it may be down or restarting).
 */
export async function startPrinterStub(options: PrinterStubOptions): Promise<PrinterStub> {
  const requests: PrinterStub['requests'] = [];
  const jobs = new Map<string, string>();
  let closed = false;
  let generation = 0;
  const walk = async (jobId: string, job: Record<string, unknown>, statuses: string[]) => {
    const echoed = Object.fromEntries((options.echo ?? []).map((field) => [field, job[field]]));
    const run = generation;
    for (const status of statuses) {
      const body = JSON.stringify({
        jobId,
        ...echoed,
        status,
        ...(status === 'delivering' ? { trackingUrl: `https://tracking.example/${jobId}` } : {}),
      });
      const eventId = `evt_${run}_${jobId}_${status}`.replace(/[^A-Za-z0-9_]/g, '_');
      for (let attempt = 0; !closed; attempt++) {
        const answer = await fetch(`${options.serviceUrl()}/v2/psp/${options.psp ?? 'local'}/events`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...signPspEvent({ secret: options.eventSecret, id: eventId, body }),
          },
          body,
        }).catch(() => undefined);
        if (answer?.ok) break;
        await new Promise((resolve) => setTimeout(resolve, Math.min(200 * (attempt + 1), 1000)));
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const job = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const traceparent = request.headers.traceparent;
      const idempotencyKey = String(request.headers['idempotency-key']);
      requests.push({
        jobKey: job.jobKey,
        idempotencyKey,
        at: Date.now(),
        ...(typeof traceparent === 'string' ? { traceparent } : {}),
      });
      // The job exists once the request arrived, whether or not its answer reaches the caller.
      let jobId = jobs.get(job.jobKey);
      if (!jobId) {
        jobId = `stubjob-${jobs.size + 1}`;
        jobs.set(job.jobKey, jobId);
        void walk(jobId, job, options.walkOf?.(jobs.size) ?? WALK);
      }
      const answer = () =>
        response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ jobId }));
      const delay = options.delayOf?.(requests.length) ?? 0;
      if (delay > 0) setTimeout(answer, delay);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jobs`,
    requests,
    jobs,
    restart() {
      generation++;
      jobs.clear();
    },
    async close() {
      closed = true;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
