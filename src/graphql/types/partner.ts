import { GraphQLDateTimeISO } from 'graphql-scalars';
import { Field, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { ENVIRONMENTS } from '../../domain/environment';
import { PRINT_PARTNERS } from '../../domain/print-partners';
import { enumOf } from './enum-of';

export const PrintPartnerName = enumOf(PRINT_PARTNERS);
registerEnumType(PrintPartnerName, {
  name: 'PrintPartner',
  description: 'A print partner a shop may hold an account with',
});

const EnvironmentName = enumOf(ENVIRONMENTS);
registerEnumType(EnvironmentName, { name: 'PartnerEnvironment', description: 'dev: the partner sandbox; prod: live' });

@ObjectType({ description: "A shipping level of the shop's markets and the partner's shipping method it ships with" })
export class PartnerShippingMethod {
  @Field(() => String, { description: 'The market shipping level code (standard, express, ...)' }) level!: string;
  @Field(() => String, {
    description: "The partner's method (Prodigi shippingMethod, Gelato shipmentMethodUid, Lulu shipping_level)",
  })
  method!: string;
}

@InputType()
export class PartnerShippingMethodInput {
  @Field(() => String) level!: string;
  @Field(() => String) method!: string;
}

@ObjectType({
  description: "The shop's account with a print partner in this environment; its credentials are never shown",
})
export class PartnerAccount {
  @Field(() => PrintPartnerName) partner!: string;
  @Field(() => EnvironmentName) env!: string;
  @Field(() => String, { description: 'The last four characters of the API key (Lulu: client key)' })
  credentialHint!: string;
  @Field(() => String, {
    description:
      "Where the partner posts this account's callbacks; secret: it lets callbacks in. Set it at Gelato and Lulu",
  })
  callbackUrl!: string;
  @Field(() => [PartnerShippingMethod], { description: 'Empty: the adapter defaults (docs/api.md, Printers)' })
  shippingMethods!: PartnerShippingMethod[];
  @Field(() => GraphQLDateTimeISO) updatedAt!: Date;
}

@InputType({ description: 'Prodigi and Gelato: apiKey; Lulu: clientKey and clientSecret' })
export class PartnerCredentialsInput {
  @Field(() => String, { nullable: true }) apiKey?: string;
  @Field(() => String, { nullable: true }) clientKey?: string;
  @Field(() => String, { nullable: true }) clientSecret?: string;
}

@InputType()
export class SetPartnerAccountInput {
  @Field(() => PrintPartnerName) partner!: string;
  @Field(() => PartnerCredentialsInput) credentials!: PartnerCredentialsInput;
  @Field(() => [PartnerShippingMethodInput], {
    nullable: true,
    description: 'Omitted: keep the current mapping; empty: the defaults',
  })
  shippingMethods?: PartnerShippingMethodInput[] | null;
}
