import { GraphQLError } from 'graphql';
import type { SocketSlots } from '../services/tenancy/socket-slots';

/** The graphql-ws caps (docs/operations.md, Limits), as configured. */
export interface SocketLimits {
  wsMaxConnectionsPerClient: number;
  wsMaxSubscriptionsPerClient: number;
}

/** graphql-ws closes with this code (like HTTP 429) a socket over its client's connection cap, or from an address that spent its failed authentications. */
export const TOO_MANY_CONNECTIONS = 4429;

/**
 * Open graphql-ws connections and running operations per client credential (client and
 * environment), so that one client cannot hold all sockets or listeners of the service; counted
 * in the SocketSlots of the service's LIMITS_STORE (across processes, or per process).
 */
export class SocketCaps {
  constructor(
    private readonly limits: SocketLimits,
    private readonly slots: SocketSlots,
  ) {}

  /** False when the client already holds its share; otherwise the connection is counted. */
  openConnection(client: string): Promise<boolean> {
    return this.slots.take(client, 'connections', this.limits.wsMaxConnectionsPerClient);
  }

  /** A counted connection closed, with the operations it still had running. */
  closeConnection(client: string, runningOperations: number): void {
    this.slots.release(client, 'connections', 1);
    this.slots.release(client, 'subscriptions', runningOperations);
  }

  /** An error when the client already runs its share of operations; otherwise it is counted. */
  async startOperation(client: string): Promise<GraphQLError | null> {
    if (await this.slots.take(client, 'subscriptions', this.limits.wsMaxSubscriptionsPerClient)) return null;
    return new GraphQLError(
      `at most ${this.limits.wsMaxSubscriptionsPerClient} subscriptions per client at a time; complete one first`,
      {
        extensions: { code: 'RATE_LIMITED' },
      },
    );
  }

  endOperation(client: string): void {
    this.slots.release(client, 'subscriptions', 1);
  }
}
