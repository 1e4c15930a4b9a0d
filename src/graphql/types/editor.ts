import { GraphQLDateTimeISO } from 'graphql-scalars';
import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType({
  description: "The product's page: its trim size (the editor draws pages at this aspect ratio) and page bounds",
})
export class ProjectFormat {
  @Field(() => Float) widthMm!: number;
  @Field(() => Float) heightMm!: number;
  @Field(() => Int, { description: 'Even, at least 2' }) minPages!: number;
  @Field(() => Int, { description: 'Even' }) maxPages!: number;
  @Field(() => String, {
    nullable: true,
    description:
      'hardcover, softcover or layflat: only a layflat book takes the spread layout (one photo across an opening)',
  })
  binding?: string | null;
}

@InputType({ description: 'A photo slot: interior page number (from 1) and slot index on it (from 0)' })
export class SlotRefInput {
  @Field(() => Int) page!: number;
  @Field(() => Int) slot!: number;
}

@InputType({ description: 'Where a photo sits in its slot (SlotCrop)' })
export class SlotCropInput {
  @Field(() => Float, { description: "0..1 of the photo's width: the point the slot is centred on" }) x!: number;
  @Field(() => Float, { description: "0..1 of the photo's height" }) y!: number;
  @Field(() => Float, { description: '1 (the photo just covers the slot) to 5' }) zoom!: number;
}

@InputType({ description: 'A text box on a page (PageCaption)' })
export class PageCaptionInput {
  @Field(() => String, { description: 'At most 500 characters; line breaks kept' }) text!: string;
  @Field(() => String, { description: 'Source Sans 3 or Lora' }) font!: string;
  @Field(() => Float, { description: '6 to 72 points' }) sizePt!: number;
  @Field(() => Float, { description: "Left edge, 0..1 of the page's trim width" }) x!: number;
  @Field(() => Float, { description: "Top edge, 0..1 of the page's trim height" }) y!: number;
  @Field(() => Float, { description: 'Width, 0..1 of the trim width (x + width at most 1); lines wrap to it' })
  width!: number;
}

@ObjectType({ description: "A new revision of a project's book: an edit, an undo or a redo, as it committed" })
export class BookRevision {
  @Field(() => ID) projectId!: string;
  @Field(() => Int) revision!: number;
  @Field(() => String, { description: 'The edit that made it, as its mutation is named (`undo movePage`...)' })
  edit!: string;
  @Field(() => Int, { description: 'The event sequence, to resume with afterSequence' }) sequence!: number;
  @Field(() => GraphQLDateTimeISO) occurredAt!: Date;
}
