import http from 'node:http';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { startTestService } from './support/harness';

describe('stopping the service', () => {
  it('ends even when a client stopped reading a download halfway: its connection is closed after the grace period', async () => {
    const api = await startTestService();
    // Far more than the loopback socket buffers hold, so the response cannot be written out whole.
    const key = 'c1/prod/orders/o1/l1/interior.pdf';
    await api.service.files.put(key, Buffer.alloc(64 * 1024 * 1024, 7));
    const { hostname, port, pathname, search } = new URL(api.service.files.url(key));

    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get({ host: hostname, port, path: `${pathname}${search}` }, resolve).on('error', reject);
    });
    expect(response.statusCode).toBe(200);
    await once(response, 'data');
    response.pause();

    // Without a bound this waits for as long as the client keeps its socket: here, forever.
    await api.stop();
    // What was buffered arrives, then the cut: the response never completes.
    const ended = once(response, 'close');
    response.resume();
    await expect(ended).rejects.toThrow('aborted');
    expect(response.complete).toBe(false);
  }, 60_000);
});
