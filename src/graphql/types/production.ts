import { GraphQLDateTimeISO } from 'graphql-scalars';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { PhotoProblem } from './project';

@ObjectType({
  description:
    "A box on the cover sheet, from the sheet's top-left corner (x right, y down), in mm and PDF points (1/72 in)",
})
export class SheetBox {
  @Field(() => Float) xMm!: number;
  @Field(() => Float) yMm!: number;
  @Field(() => Float) widthMm!: number;
  @Field(() => Float) heightMm!: number;
  @Field(() => Float) xPt!: number;
  @Field(() => Float) yPt!: number;
  @Field(() => Float) widthPt!: number;
  @Field(() => Float) heightPt!: number;
}

@ObjectType({
  description:
    'The cover sheet a book of a product and page count prints on (cover.pdf), REST: GET /v2/product/cover-dimensions',
})
export class CoverDimensions {
  @Field(() => String) sku!: string;
  @Field(() => String, { description: 'hardcover, softcover or layflat' }) binding!: string;
  @Field(() => Int, { description: 'Interior pages the sheet is computed for' }) pages!: number;
  @Field(() => Float, { description: 'The whole sheet, bleed included (the PDF MediaBox)' }) widthMm!: number;
  @Field(() => Float) heightMm!: number;
  @Field(() => Float) widthPt!: number;
  @Field(() => Float) heightPt!: number;
  @Field(() => Float, { description: 'Leaves x leafThicknessMm + 2 x boardThicknessMm' }) spineWidthMm!: number;
  @Field(() => Float) bleedMm!: number;
  @Field(() => Float, { description: 'Turned in over the boards on every side; 0 for a softcover' }) wrapMm!: number;
  @Field(() => Float, { description: 'Between each board and the spine; 0 for a softcover' }) hingeMm!: number;
  @Field(() => Boolean, { description: 'Whether the spine carries text; a thinner spine is left blank' })
  spineText!: boolean;
  @Field(() => SheetBox, { description: 'The sheet as cut (the PDF TrimBox)' }) trim!: SheetBox;
  @Field(() => SheetBox) back!: SheetBox;
  @Field(() => SheetBox) spine!: SheetBox;
  @Field(() => SheetBox) front!: SheetBox;
}

@ObjectType({ description: 'A photo of the project that could not be used, and why' })
export class FailedPhoto {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true, description: 'The id the client gave with the URL' }) clientPhotoId?: string;
  @Field(() => String) url!: string;
  @Field(() => PhotoProblem) problem!: PhotoProblem;
}

@ObjectType({ description: 'One problem the preflight found in a book' })
export class PreflightProblem {
  @Field(() => String, {
    description:
      'NO_USABLE_PHOTO, TOO_FEW_PHOTOS, PHOTO_FAILED, PHOTO_MISSING, EMPTY_SLOT, BLANK_PAGE, PAGE_COUNT_ODD, PAGE_COUNT_OUT_OF_RANGE, RESOLUTION_TOO_LOW, LOW_RESOLUTION, TEXT_CUT, FACE_ON_FOLD, BOOK_NOT_BUILT',
  })
  code!: string;
  @Field(() => String, {
    description: 'blocking: printing refuses the project (NOT_PRINTABLE); warning: it prints, but may disappoint',
  })
  severity!: string;
  @Field(() => Int, { nullable: true, description: 'Interior page, from 1; 0 is the cover; null: the whole book' })
  page?: number | null;
  @Field(() => Int, { nullable: true, description: 'Photo slot on the page, from 0 in reading order' }) slot?:
    | number
    | null;
  @Field(() => String) message!: string;
}

@ObjectType({ description: "Whether the project's book can be printed as it is now (REST: GET /v2/project/preflight)" })
export class Preflight {
  @Field(() => Boolean, { description: 'No blocking problem: printing accepts the project as it is now' })
  printable!: boolean;
  @Field(() => [PreflightProblem]) problems!: PreflightProblem[];
  @Field(() => Int, { description: 'Distinct photos placed in the book (pages and cover) that can be printed' })
  usablePhotos!: number;
  @Field(() => [FailedPhoto], {
    description: "Every photo of the project that failed, in the client's order, with its reason (as Photo.problem)",
  })
  failedPhotos!: FailedPhoto[];
}

@ObjectType({ description: 'One print file of a proof: the printer receives exactly these bytes' })
export class ProofFile {
  @Field(() => String, { description: 'cover.pdf or interior.pdf' }) name!: string;
  @Field(() => String, { description: 'SHA-256 (hex) of the file' }) sha256!: string;
  @Field(() => Int) bytes!: number;
  @Field(() => Int) pages!: number;
}

@ObjectType({
  description:
    "A project's print files rendered before the order (REST: POST /v2/project/proof); printOrder with projects[].proofId prints them",
})
export class Proof {
  @Field(() => String) proofId!: string;
  @Field(() => [ProofFile]) files!: ProofFile[];
  @Field(() => String, { description: 'Signed URL of a watermarked, low-resolution (72 DPI) PDF to show the customer' })
  previewUrl!: string;
  @Field(() => GraphQLDateTimeISO, {
    description: 'PROOF_TTL after the proof; an order naming it later is PROOF_EXPIRED',
  })
  expiresAt!: Date;
}
