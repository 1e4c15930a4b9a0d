import { GraphQLDateTimeISO, GraphQLJSONObject } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A committed status change of a project, photo, order or campaign' })
export class StatusEvent {
  @Field(() => String, { description: 'project, photo, order or campaign' }) subjectType!: string;
  @Field(() => String) subjectId!: string;
  @Field(() => String) status!: string;
  @Field(() => Int, { description: '1, 2, 3... per subject, in commit order' }) sequence!: number;
  @Field(() => GraphQLJSONObject, { description: 'Extra facts of the change, such as a tracking URL' }) detail!: Record<
    string,
    unknown
  >;
  @Field(() => GraphQLDateTimeISO) occurredAt!: Date;
}
