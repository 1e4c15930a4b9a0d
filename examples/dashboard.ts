/**
 * An order dashboard with @photobook/client's GraphQL: every order through the Relay connection,
 * page by page, then each status change as it happens over graphql-ws (Ctrl-C to stop).
 *
 *   BASE_URL=http://localhost:4000 ACCESS_KEY=… ACCESS_SECRET=… npx tsx examples/dashboard.ts
 *
 * Optional: PAGE_SIZE (default 20).
 */
import { pathToFileURL } from 'node:url';
import {
  createPhotobookClient,
  OrdersDocument,
  OrderStatusChangedDocument,
  type ClientCredentials,
  type OrdersQuery,
  type OrderStatusChangedSubscription,
} from '../clients/typescript/src/index';

export type OrderRow = OrdersQuery['orders']['edges'][number]['node'];
export type StatusChange = OrderStatusChangedSubscription['orderStatusChanged'];

export interface DashboardOptions {
  baseUrl: string;
  credentials: ClientCredentials;
  pageSize?: number;
  log?: (line: string) => void;
}

export interface Dashboard {
  /** Every order of the credentials' client and environment, newest first, `pageSize` a request. */
  listOrders(): Promise<{ orders: OrderRow[]; pages: number }>;
  /** Each status change of any of the client's orders, until `stopWhen` says so or `signal` aborts. */
  watch(options?: { stopWhen?: (change: StatusChange) => boolean; signal?: AbortSignal }): Promise<StatusChange[]>;
}

export function dashboard(options: DashboardOptions): Dashboard {
  const client = createPhotobookClient({ baseUrl: options.baseUrl, credentials: options.credentials });
  const log = options.log ?? console.log;
  const first = options.pageSize ?? 20;
  return {
    async listOrders() {
      const orders: OrderRow[] = [];
      let after: string | undefined;
      let pages = 0;
      do {
        const { orders: page } = await client.graphql(OrdersDocument, { first, after });
        pages++;
        for (const { node } of page.edges) {
          orders.push(node);
          log(`${node.orderId}: ${node.lines.map((line) => `${line.projectId} ${line.status}`).join(', ')}`);
        }
        after = page.pageInfo.hasNextPage ? (page.pageInfo.endCursor ?? undefined) : undefined;
      } while (after);
      return { orders, pages };
    },

    async watch({ stopWhen, signal } = {}) {
      const subscriptions = client.subscriptions();
      const changes = subscriptions.subscribe(OrderStatusChangedDocument, {});
      const stop = () => void changes.return?.();
      signal?.addEventListener('abort', stop, { once: true });
      const seen: StatusChange[] = [];
      try {
        for await (const { orderStatusChanged: change } of changes) {
          seen.push(change);
          log(`${change.orderId} ${change.projectId}: ${change.status} (#${change.sequence})`);
          if (stopWhen?.(change)) break;
        }
      } finally {
        signal?.removeEventListener('abort', stop);
        await subscriptions.close();
      }
      return seen;
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const env = (name: string) => process.env[name] ?? exitSaying(`set ${name} (see the top of examples/dashboard.ts)`);
  const board = dashboard({
    baseUrl: env('BASE_URL'),
    credentials: { accessKey: env('ACCESS_KEY'), accessSecret: env('ACCESS_SECRET') },
    pageSize: process.env.PAGE_SIZE ? Number(process.env.PAGE_SIZE) : undefined,
  });
  const interrupted = new AbortController();
  process.once('SIGINT', () => interrupted.abort());
  try {
    const { orders, pages } = await board.listOrders();
    console.log(`${orders.length} orders in ${pages} pages; watching status changes (Ctrl-C to stop)`);
    await board.watch({ signal: interrupted.signal });
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  }
}

function exitSaying(message: string): never {
  console.error(message);
  process.exit(2);
}
