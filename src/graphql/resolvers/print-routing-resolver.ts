import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../context';
import { PrintRouting, PrintRoutingInput } from '../types/print-routing';
import { plainInput } from '../plain-input';

/** The caller's print routing and hold window (CLI: `routing show|set`). */
@Resolver()
export class PrintRoutingResolver {
  @Query(() => PrintRouting, { description: 'This shop’s print routing and hold window in this environment' })
  printRouting(@Ctx() { ctx, services }: GraphqlContext): Promise<PrintRouting> {
    return services.routing.show(ctx);
  }

  @Mutation(() => PrintRouting, {
    description:
      'Set the print routing and hold window; members left out keep their value, orders already routed keep their routing',
  })
  setPrintRouting(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('input', () => PrintRoutingInput) input: PrintRoutingInput,
  ): Promise<PrintRouting> {
    return services.routing.set(ctx, plainInput(input));
  }
}
