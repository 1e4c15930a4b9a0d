import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { graphqlContext } from '../../src/graphql/graphql-server';
import type { AppServices } from '../../src/services/app-services';
import type { StatusEventBus } from '../../src/events/status-event-bus';
import type { RequestContext } from '../../src/services/context';

describe('GraphQL context', () => {
  it('makes its loaders on first use, also in the copy Apollo makes of it for each operation', () => {
    let forks = 0;
    const ctx = {
      tenant: { clientId: 'c-1', clientName: 'Shop', env: 'sandbox' },
      requestId: 'r-1',
      get em(): never {
        forks += 1;
        throw new Error('no batch runs in this test');
      },
    } as unknown as RequestContext;
    const context = graphqlContext(ctx, {} as AppServices, {} as StatusEventBus);
    // What Apollo Server does with the context value of every operation (ApolloServer.js, cloneObject).
    const copy = Object.assign(Object.create(Object.getPrototypeOf(context)), context);
    expect(Object.getOwnPropertyNames(copy)).not.toContain('loaders');
    expect(copy.ctx).toBe(ctx);

    const loaders = copy.loaders;
    expect(copy.loaders).toBe(loaders);
    expect(Object.keys(loaders)).toEqual(['photosByProject', 'bookStateByProject', 'bookByProject']);
    expect(context.loaders).not.toBe(loaders);
    expect(forks).toBe(0);
  });
});
