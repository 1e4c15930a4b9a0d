import { GraphQLError } from 'graphql';

/** The graphql-ws caps (docs/operations.md, Limits), as configured. */
export interface SocketLimits {
  wsMaxConnectionsPerClient: number;
  wsMaxSubscriptionsPerClient: number;
}

/** graphql-ws closes with this code (like HTTP 429) a socket over its client's connection cap, or from an address that spent its failed authentications. */
export const TOO_MANY_CONNECTIONS = 4429;

/**
 * Counts open graphql-ws connections and running operations per client credential (client and
 * environment), so that one client cannot hold all sockets or listeners of the process.
 */
export class SocketCaps {
  private readonly connections = new Map<string, number>();
  private readonly subscriptions = new Map<string, number>();

  constructor(private readonly limits: SocketLimits) {}

  /** False when the client already holds its share; otherwise the connection is counted. */
  openConnection(client: string): boolean {
    const open = this.connections.get(client) ?? 0;
    if (open >= this.limits.wsMaxConnectionsPerClient) return false;
    this.connections.set(client, open + 1);
    return true;
  }

  /** A counted connection closed, with the operations it still had running. */
  closeConnection(client: string, runningOperations: number): void {
    decrement(this.connections, client, 1);
    decrement(this.subscriptions, client, runningOperations);
  }

  /** An error when the client already runs its share of operations; otherwise it is counted. */
  startOperation(client: string): GraphQLError | null {
    const running = this.subscriptions.get(client) ?? 0;
    if (running >= this.limits.wsMaxSubscriptionsPerClient) {
      return new GraphQLError(`at most ${this.limits.wsMaxSubscriptionsPerClient} subscriptions per client at a time; complete one first`, {
        extensions: { code: 'RATE_LIMITED' },
      });
    }
    this.subscriptions.set(client, running + 1);
    return null;
  }

  endOperation(client: string): void {
    decrement(this.subscriptions, client, 1);
  }
}

function decrement(counts: Map<string, number>, key: string, by: number): void {
  const left = (counts.get(key) ?? 0) - by;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
