import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../context';
import { plainInput } from '../plain-input';
import { OrderValidation, Quote, QuoteInput } from '../types/quote';
import { PrintOrderInput } from '../types/order';
import type { QuoteInput as QuoteRequest } from '../../services/orders/quote-input';

@Resolver()
export class QuoteResolver {
  @Mutation(() => Quote, {
    description:
      'Price lines for a market and destination; the answer is stored as a quote an order can name (REST: POST /v2/quote)',
  })
  async quote(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('input', () => QuoteInput) input: QuoteInput,
  ): Promise<Quote> {
    const quoted = await services.orders.quote(ctx, plainInput<QuoteRequest>(input));
    return { ...quoted, expiresAt: new Date(quoted.expiresAt * 1000) };
  }

  @Query(() => OrderValidation, {
    description: 'Every check of printOrder for this input; nothing is written (REST: /v2/print with validateOnly)',
  })
  validateOrder(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('input', () => PrintOrderInput) input: PrintOrderInput,
  ): Promise<OrderValidation> {
    return services.orders.validate(ctx, plainInput(input));
  }
}
