import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { PRINTER_NAMES } from '../../domain/print-routing';

const PRINTERS = `printers to try in turn, each one of ${PRINTER_NAMES.join(', ')}`;

@ObjectType({ description: 'Which order lines a routing rule takes: every line when a list is null' })
export class RoutingMatch {
  @Field(() => [String], { nullable: true, description: 'Skus' }) products?: string[] | null;
  @Field(() => [String], { nullable: true, description: 'Destination countries, ISO 3166 alpha-2' }) countries?:
    | string[]
    | null;
}

@ObjectType({ description: 'A routing rule: the first that matches a line chooses its printers' })
export class RoutingRule {
  @Field(() => RoutingMatch) match!: RoutingMatch;
  @Field(() => [String], { description: PRINTERS }) printers!: string[];
}

@ObjectType({
  description: "The shop's print routing and hold window in this environment (docs/api.md, Printers and routing)",
})
export class PrintRouting {
  @Field(() => [RoutingRule]) rules!: RoutingRule[];
  @Field(() => [String], {
    description: 'The printers of a line no rule matches; empty: the sandbox in dev, PRINTER in prod',
  })
  defaultPrinters!: string[];
  @Field(() => Int, { description: 'Seconds between payment and sending to the printer (0: none)' })
  holdWindowSeconds!: number;
  @Field(() => Int, {
    nullable: true,
    description: "Seconds a printer has to accept a job before the next gets it; null: the operator's default",
  })
  acceptTimeoutSeconds?: number | null;
}

@InputType()
export class RoutingMatchInput {
  @Field(() => [String], { nullable: true }) products?: string[];
  @Field(() => [String], { nullable: true }) countries?: string[];
}

@InputType()
export class RoutingRuleInput {
  @Field(() => RoutingMatchInput) match!: RoutingMatchInput;
  @Field(() => [String], { description: PRINTERS }) printers!: string[];
}

@InputType({ description: 'Members left out keep their value' })
export class PrintRoutingInput {
  @Field(() => [RoutingRuleInput], { nullable: true, description: 'Replaces every rule; [] removes them' })
  rules?: RoutingRuleInput[];
  @Field(() => [String], { nullable: true }) defaultPrinters?: string[];
  @Field(() => Int, { nullable: true }) holdWindowSeconds?: number;
  @Field(() => Int, { nullable: true, description: "0: the operator's PRINTER_ACCEPT_TIMEOUT" })
  acceptTimeoutSeconds?: number;
}

@ObjectType({ description: 'One routing decision of an order line' })
export class RoutingDecision {
  @Field(() => String, { description: 'routed, failed_over, late_acceptance_cancelled or late_acceptance_refused' })
  decision!: string;
  @Field(() => GraphQLDateTimeISO) at!: Date;
  @Field(() => String) printer!: string;
  @Field(() => String, { nullable: true, description: 'failed_over: the printer that gets the job now' }) next?:
    | string
    | null;
  @Field(() => String, { nullable: true }) reason?: string | null;
  @Field(() => String, { nullable: true, description: "The late job's id at that printer" }) jobId?: string | null;
}

@ObjectType({ description: 'How an order line was routed to its printer' })
export class LineRouting {
  @Field(() => [String], { description: 'The printers chosen, tried in this order' }) printers!: string[];
  @Field(() => Int, { nullable: true, description: "The shop's rule that chose them (0-based); null: the default" })
  rule?: number | null;
  @Field(() => String, { nullable: true, description: 'The printer that holds the job, once one accepted it' })
  printer?: string | null;
  @Field(() => [RoutingDecision]) decisions!: RoutingDecision[];
}
