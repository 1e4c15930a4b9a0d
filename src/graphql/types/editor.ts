import { Field, Float, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType({
  description: "The product's page: its trim size (the editor draws pages at this aspect ratio) and page bounds",
})
export class ProjectFormat {
  @Field(() => Float) widthMm!: number;
  @Field(() => Float) heightMm!: number;
  @Field(() => Int, { description: 'Even, at least 2' }) minPages!: number;
  @Field(() => Int, { description: 'Even' }) maxPages!: number;
}

@InputType({ description: 'A photo slot: interior page number (from 1) and slot index on it (from 0)' })
export class SlotRefInput {
  @Field(() => Int) page!: number;
  @Field(() => Int) slot!: number;
}
