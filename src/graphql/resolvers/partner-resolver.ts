import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphqlContext } from '../context';
import { PartnerAccount, PrintPartnerName, SetPartnerAccountInput } from '../types/partner';
import type { PartnerAccountView } from '../../services/partners/partner-accounts';

/** The caller's print partner accounts in its environment (docs/api.md, Printers). */
@Resolver()
export class PartnerResolver {
  @Query(() => [PartnerAccount], { description: "This client's print partner accounts in this environment" })
  async partnerAccounts(@Ctx() { ctx, services }: GraphqlContext): Promise<PartnerAccount[]> {
    return (await services.partners.list(ctx)).map(accountOf);
  }

  @Mutation(() => PartnerAccount, {
    description: 'Set (or replace) the account with a partner; the credentials are sealed and never shown again',
  })
  async setPartnerAccount(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('input', () => SetPartnerAccountInput) input: SetPartnerAccountInput,
  ): Promise<PartnerAccount> {
    const { apiKey, clientKey, clientSecret } = input.credentials;
    const view = await services.partners.set(ctx, {
      partner: input.partner,
      credentials: { apiKey, clientKey, clientSecret },
      ...(input.shippingMethods === undefined
        ? {}
        : {
            shippingMethods:
              input.shippingMethods === null || input.shippingMethods.length === 0
                ? null
                : Object.fromEntries(input.shippingMethods.map((m) => [m.level, m.method])),
          }),
    });
    return accountOf(view);
  }

  @Mutation(() => Boolean, { description: 'Remove the account with a partner; its callback URL stops working' })
  async removePartnerAccount(
    @Ctx() { ctx, services }: GraphqlContext,
    @Arg('partner', () => PrintPartnerName) partner: string,
  ): Promise<boolean> {
    await services.partners.remove(ctx, partner);
    return true;
  }
}

function accountOf(view: PartnerAccountView): PartnerAccount {
  return {
    ...view,
    shippingMethods: Object.entries(view.shippingMethods ?? {}).map(([level, method]) => ({ level, method })),
  };
}
