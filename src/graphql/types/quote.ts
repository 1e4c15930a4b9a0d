import { GraphQLDateTimeISO } from 'graphql-scalars';
import { Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import { MAX_BOOK_PAGES, MAX_COPIES, MAX_MONEY } from '../../domain/limits';

@InputType({ description: 'A line to price: a project (from its book as it is now), or a sku with a page count' })
export class QuoteLineInput {
  @Field(() => String, { nullable: true }) projectId?: string;
  @Field(() => String, { nullable: true, description: 'a sku or renderOptions.productId' }) sku?: string;
  @Field(() => Int, {
    nullable: true,
    description: `interior pages, with sku: even, 2 to ${MAX_BOOK_PAGES} and within the product's min.pages…max.pages`,
  })
  pageCount?: number;
  @Field(() => Int, { description: `copies, 1 to ${MAX_COPIES}` }) quantity!: number;
}

@InputType()
export class QuoteCouponInput {
  @Field(() => Float, { description: `0 to ${MAX_MONEY}, at most the books' subtotal` }) value!: number;
  @Field(() => String, { nullable: true }) code?: string;
}

@InputType({ description: 'What POST /v2/quote takes' })
export class QuoteInput {
  @Field(() => String, { description: 'an integer market id or an alternative id' }) marketId!: string;
  @Field(() => String, { description: 'the destination country, ISO 3166-1 alpha-2' }) countryIso2!: string;
  @Field(() => String, { nullable: true, description: "a level's code or name; default: the market's default level" })
  shippingLevel?: string;
  @Field(() => QuoteCouponInput, { nullable: true }) coupon?: QuoteCouponInput;
  @Field(() => String, { nullable: true, description: 'for level names; default en' }) language?: string;
  @Field(() => [QuoteLineInput]) lines!: QuoteLineInput[];
}

@ObjectType()
export class QuotedLine {
  @Field(() => String, { nullable: true }) projectId?: string;
  @Field(() => String) sku!: string;
  @Field(() => Int) pageCount!: number;
  @Field(() => Int) basePages!: number;
  @Field(() => Int) extraPages!: number;
  @Field(() => Int) quantity!: number;
  @Field(() => Float) basePrice!: number;
  @Field(() => Float) extraCostPerPage!: number;
  @Field(() => Float, { description: 'per copy' }) extraPagesCost!: number;
  @Field(() => Float, { description: 'per copy' }) unitPrice!: number;
  @Field(() => Float) lineTotal!: number;
  @Field(() => Float, { description: "the line's share of the coupon" }) discount!: number;
  @Field(() => Float) tax!: number;
}

@ObjectType()
export class DayRange {
  @Field(() => Int) min!: number;
  @Field(() => Int) max!: number;
}

@ObjectType()
export class DeliveryRange {
  @Field(() => String, { description: 'YYYY-MM-DD' }) earliest!: string;
  @Field(() => String, { description: 'YYYY-MM-DD' }) latest!: string;
}

@ObjectType({ description: 'A shipping level that reaches the destination, priced' })
export class QuotedShippingLevel {
  @Field(() => String) code!: string;
  @Field(() => String) name!: string;
  @Field(() => Float) cost!: number;
  @Field(() => Float) tax!: number;
  @Field(() => Float, { description: 'the grand total with this level' }) grandTotal!: number;
  @Field(() => Int, { description: 'business days' }) productionDays!: number;
  @Field(() => DayRange, { description: 'business days' }) transitDays!: DayRange;
  @Field(() => DeliveryRange) delivery!: DeliveryRange;
}

@ObjectType({ description: 'Prices held for an order that names quoteId until expiresAt (REST: POST /v2/quote)' })
export class Quote {
  @Field(() => String) quoteId!: string;
  @Field(() => GraphQLDateTimeISO) expiresAt!: Date;
  @Field(() => Int) marketId!: number;
  @Field(() => String) currency!: string;
  @Field(() => String) countryIso2!: string;
  @Field(() => Boolean) pricesIncludeTax!: boolean;
  @Field(() => Float, { description: 'percent' }) taxRate!: number;
  @Field(() => [QuotedLine]) lines!: QuotedLine[];
  @Field(() => [QuotedShippingLevel]) shippingLevels!: QuotedShippingLevel[];
  @Field(() => String, { nullable: true }) shippingLevel?: string | null;
  @Field(() => Float) subTotal!: number;
  @Field(() => Float) shipping!: number;
  @Field(() => Float) coupon!: number;
  @Field(() => Float) tax!: number;
  @Field(() => Float) grandTotal!: number;
}

@ObjectType()
export class OrderProblem {
  @Field(() => String, { description: 'the error code a print would answer' }) code!: string;
  @Field(() => String, { description: 'the field as sent' }) path!: string;
  @Field(() => String) message!: string;
}

@ObjectType({ description: 'Every check of printOrder, nothing written (REST: /v2/print with validateOnly)' })
export class OrderValidation {
  @Field(() => Boolean) valid!: boolean;
  @Field(() => [OrderProblem]) problems!: OrderProblem[];
}
