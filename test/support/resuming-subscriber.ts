import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

interface ReceivedOrderEvent {
  status: string;
  sequence: number;
}

export interface ResumingSubscriber {
  events: ReceivedOrderEvent[];
  /** How many times it had to reconnect. */
  reconnects: number;
  close(): Promise<void>;
}

const ORDER_LINE = `subscription ($orderId: String!, $projectId: String!, $afterSequence: Int) {
  orderStatusChanged(orderId: $orderId, projectId: $projectId, afterSequence: $afterSequence) { status sequence }
}`;

/**
 * A dashboard following one order line over graphql-ws as a careful client would: whenever its
 * socket drops (the service was killed), it connects again and resumes after the last sequence it
 * received, so it should see every status once and in order.
 */
export function followOrderLine(
  wsUrl: string,
  credentials: { accessKey: string; accessSecret: string },
  orderId: string,
  projectId: string,
  afterSequence = 0,
): ResumingSubscriber {
  const state: ResumingSubscriber & { client?: Client; closed: boolean } = {
    events: [],
    reconnects: 0,
    closed: false,
    async close() {
      state.closed = true;
      await state.client?.dispose();
    },
  };
  const connect = () => {
    if (state.closed) return;
    const last = state.events.at(-1)?.sequence ?? afterSequence;
    const client = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: credentials,
      retryAttempts: 0,
      lazy: true,
    });
    state.client = client;
    const again = () => {
      void client.dispose();
      if (state.closed) return;
      state.reconnects++;
      setTimeout(connect, 300);
    };
    client.subscribe<{ orderStatusChanged: ReceivedOrderEvent }>(
      { query: ORDER_LINE, variables: { orderId, projectId, afterSequence: last } },
      {
        next: (result) => {
          if (result.data) state.events.push(result.data.orderStatusChanged);
          else if (result.errors) again();
        },
        error: again,
        complete: again,
      },
    );
  };
  connect();
  return state;
}
