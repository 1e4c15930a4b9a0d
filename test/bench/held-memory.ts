import { once } from 'node:events';
import WebSocket from 'ws';

export interface HeldMemory {
  rssKiB: number;
  heapUsedKiB: number;
}

/**
 * What a service started with `--inspect=127.0.0.1:<port>` holds after full garbage collections,
 * asked through its inspector: memory read without them still carries whatever awaits collection
 * (the subscribers of the round before), and a difference of two readings could come out negative.
 */
export async function heldMemory(inspectorPort: number): Promise<HeldMemory> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await once(socket, 'open');
  let lastId = 0;
  const call = (method: string, params: object = {}) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = ++lastId;
      const onMessage = (data: WebSocket.RawData) => {
        const message = JSON.parse(String(data)) as {
          id?: number;
          result?: Record<string, unknown>;
          error?: { message: string };
        };
        if (message.id !== id) return;
        socket.off('message', onMessage);
        if (message.error) reject(new Error(`${method}: ${message.error.message}`));
        else resolve(message.result ?? {});
      };
      socket.on('message', onMessage);
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    // Twice: objects kept by finalizers or weak maps go in the second.
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    const { result } = (await call('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    })) as {
      result: { value: string };
    };
    const usage = JSON.parse(result.value) as NodeJS.MemoryUsage;
    return { rssKiB: usage.rss / 1024, heapUsedKiB: usage.heapUsed / 1024 };
  } finally {
    socket.close();
  }
}
