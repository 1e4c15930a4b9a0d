import { GraphQLDateTimeISO, GraphQLJSONObject } from 'graphql-scalars';
import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { LAYOUT_TYPES, type LayoutType } from '../../domain/book';
import { CURATION_REASONS } from '../../domain/curation';
import { PHOTO_STATUSES, PHOTOS_STATUSES, PROJECT_STATUSES } from '../../domain/project-status';
import { DELETE_TYPES } from '../../services/projects/project-lifecycle';
import { enumOf } from './enum-of';

const LayoutTypeEnum = enumOf(LAYOUT_TYPES);
registerEnumType(LayoutTypeEnum, { name: 'LayoutType', description: 'How the book is laid out from the photos' });

export const DeleteTypeEnum = enumOf(DELETE_TYPES);
registerEnumType(DeleteTypeEnum, { name: 'DeleteType' });

@ObjectType()
export class ProjectStatusPair {
  @Field(() => String, { description: PROJECT_STATUSES.join(', ') }) project!: string;
  @Field(() => String, { description: PHOTOS_STATUSES.join(', ') }) photos!: string;
}

@ObjectType()
export class ProjectProduct {
  @Field(() => String) psp!: string;
  @Field(() => String) sku!: string;
  @Field(() => Int) marketId!: number;
  @Field(() => String) marketIdAlt!: string;
}

@ObjectType({ description: 'Why a photo could not be used' })
export class PhotoProblem {
  @Field(() => String, {
    description: 'DOWNLOAD_FAILED, DOWNLOAD_TIME_LIMIT, HTTP_STATUS, NOT_AN_IMAGE, TOO_LARGE, BLOCKED_ADDRESS, ...',
  })
  code!: string;
  @Field(() => String) message!: string;
}

@ObjectType({
  description:
    'Why a smartbook kept a photo or left it out (docs/api.md, Curation); a photo left out stays in the project and can be placed in the editor',
})
export class PhotoCuration {
  @Field(() => Boolean, { description: 'In the book as built' }) kept!: boolean;
  @Field(() => String, {
    description: `${CURATION_REASONS.slice(0, -1).join(', ')} or ${CURATION_REASONS.at(-1)}; blurry or exposure with kept true: in the book, demoted (no better photo of that moment)`,
  })
  reason!: string;
  @Field(() => ID, {
    nullable: true,
    description:
      'The photo kept for its group of copies or its burst (that photo itself included); null when it stands alone',
  })
  groupId!: string | null;
  @Field(() => Float, {
    description: '0..1 importance: quality, halved when blurred or badly exposed; more gets more room',
  })
  score!: number;
}

@ObjectType({
  description:
    "A face found in a photo: a box in 0..1 of the upright photo's width and height, and the detector's confidence",
})
export class FaceBox {
  @Field(() => Float) x!: number;
  @Field(() => Float) y!: number;
  @Field(() => Float) width!: number;
  @Field(() => Float) height!: number;
  @Field(() => Float, { description: '0..1' }) score!: number;
}

@ObjectType()
export class Photo {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true, description: 'The id the client gave with the URL' }) clientPhotoId?:
    | string
    | null;
  @Field(() => String, { nullable: true, description: 'Template asset this photo fills (from custom), if any' })
  assetId?: string | null;
  @Field(() => String) url!: string;
  @Field(() => String, { description: `${PHOTO_STATUSES.slice(0, -1).join(', ')} or ${PHOTO_STATUSES.at(-1)}` })
  status!: string;
  @Field(() => PhotoProblem, { nullable: true }) problem?: PhotoProblem | null;
  @Field(() => Int, { nullable: true }) width?: number | null;
  @Field(() => Int, { nullable: true }) height?: number | null;
  @Field(() => Int, { nullable: true }) exifOrientation?: number | null;
  @Field(() => GraphQLDateTimeISO, { nullable: true }) capturedAt?: Date | null;
  @Field(() => Float, { nullable: true, description: '0..1' }) sharpness?: number | null;
  @Field(() => Float, { nullable: true, description: '0..1' }) quality?: number | null;
  @Field(() => PhotoCuration, {
    nullable: true,
    description: "The smartbook's decision at the last build; null for a fastbook, an asset photo, or before a build",
  })
  curation?: PhotoCuration | null;
  @Field(() => [FaceBox], {
    nullable: true,
    description:
      "Where the photo's faces are (largest first), which automatic crops keep inside the print's safe area: [] when the detector found none; null when unknown (not analysed yet, analysed before faces were looked for, or the detector did not run on it), cropped as a photo without faces until they are detected. Boxes only: no identity",
  })
  faces?: FaceBox[] | null;
}

@ObjectType({
  description:
    'Where a photo sits in its slot: the point of the photo the slot is centred on (0..1 of its width and height) and the zoom (1: the photo just covers the slot, up to 5)',
})
export class SlotCrop {
  @Field(() => Float) x!: number;
  @Field(() => Float) y!: number;
  @Field(() => Float) zoom!: number;
}

@ObjectType({ description: "The part of the upright photo a slot shows, 0..1 of the photo's width and height" })
export class CropRect {
  @Field(() => Float) left!: number;
  @Field(() => Float) top!: number;
  @Field(() => Float) width!: number;
  @Field(() => Float) height!: number;
}

@ObjectType()
export class PhotoSlot {
  @Field(() => String) photoId!: string;
  @Field(() => Float) x!: number;
  @Field(() => Float) y!: number;
  @Field(() => Float) width!: number;
  @Field(() => Float) height!: number;
  @Field(() => SlotCrop, { nullable: true, description: 'The crop the customer chose; null: the automatic crop' })
  crop?: SlotCrop | null;
}

@ObjectType({
  description:
    "A text box on a page: top-left corner and width 0..1 of the page's trim box, size in points, a font shipped with the project",
})
export class PageCaption {
  @Field(() => String) text!: string;
  @Field(() => String, { description: 'Source Sans 3 or Lora' }) font!: string;
  @Field(() => Float) sizePt!: number;
  @Field(() => Float) x!: number;
  @Field(() => Float) y!: number;
  @Field(() => Float) width!: number;
}

@ObjectType()
export class TextSlot {
  @Field(() => String) assetId!: string;
  @Field(() => String) text!: string;
}

@ObjectType()
export class BookPage {
  @Field(() => Int) number!: number;
  @Field(() => String) layout!: string;
  @Field(() => [PhotoSlot]) photos!: PhotoSlot[];
  @Field(() => [TextSlot]) texts!: TextSlot[];
  @Field(() => [PageCaption], { description: 'Text boxes the customer placed on the page' })
  captions!: PageCaption[];
}

@ObjectType()
export class BookCover {
  @Field(() => String) title!: string;
  @Field(() => String, { nullable: true }) subtitle?: string;
  @Field(() => String, { nullable: true }) photoId?: string;
  @Field(() => [TextSlot]) texts!: TextSlot[];
}

@ObjectType({ description: "The order a project was printed in (its newest order line): the editor's order status" })
export class ProjectOrder {
  @Field(() => String, { description: 'The line status (docs/api.md, Order line statuses)' }) status!: string;
  @Field(() => GraphQLDateTimeISO, { description: 'When the order was placed' }) orderedAt!: Date;
  @Field(() => GraphQLDateTimeISO) statusChangedAt!: Date;
  @Field(() => Float, { description: "The line's total for all its copies, in currency's major units" }) total!: number;
  @Field(() => String, { description: 'ISO 4217, the order currency' }) currency!: string;
  @Field(() => Int, { description: 'Copies' }) quantity!: number;
}

@ObjectType()
export class Project {
  @Field(() => ID) id!: string;
}

@ObjectType()
export class PageInfo {
  @Field(() => Boolean) hasNextPage!: boolean;
  @Field(() => String, { nullable: true }) endCursor?: string | null;
}

@ObjectType()
export class ProjectEdge {
  @Field(() => String) cursor!: string;
  @Field(() => Project) node!: Project;
}

@ObjectType()
export class ProjectConnection {
  @Field(() => [ProjectEdge]) edges!: ProjectEdge[];
  @Field(() => PageInfo) pageInfo!: PageInfo;
}

@InputType()
export class PhotoInput {
  @Field(() => String, { nullable: true }) id?: string;
  @Field(() => String) url!: string;
}

@InputType()
export class GenerateProjectInput {
  @Field(() => String, { nullable: true, description: 'Exactly one of email/userId, or neither' }) email?: string;
  @Field(() => String, { nullable: true }) userId?: string;
  @Field(() => String, { nullable: true }) language?: string;
  @Field(() => String, { description: 'sku or renderOptions.productId' }) sku!: string;
  @Field(() => String) psp!: string;
  @Field(() => String, { description: 'Integer id or alternative id' }) marketId!: string;
  @Field(() => [PhotoInput], { nullable: true }) photos?: PhotoInput[];
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown>;
  @Field(() => LayoutTypeEnum, { nullable: true }) layoutType?: LayoutType;
  @Field(() => Boolean, { nullable: true }) eCommercePlugin?: boolean;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Template asset values by id' }) custom?: Record<
    string,
    unknown
  >;
  @Field(() => String, { nullable: true, description: 'URL told (signed) when the project is editable' })
  callback?: string;
}

@ObjectType()
export class GenerateProjectPayload {
  @Field(() => String, { description: 'Editor URL' }) url!: string;
  @Field(() => Project) project!: Project;
}

@ObjectType()
export class DeleteProjectsPayload {
  @Field(() => [String]) ids!: string[];
}

@ObjectType({ description: 'A committed change of a project status or photos status' })
export class ProjectStatusEvent {
  @Field(() => String) projectId!: string;
  @Field(() => String) user!: string;
  @Field(() => ProjectStatusPair) status!: ProjectStatusPair;
  @Field(() => Int) sequence!: number;
  @Field(() => GraphQLDateTimeISO) occurredAt!: Date;
}
