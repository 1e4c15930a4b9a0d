import { Type, type Static } from 'typebox';
import { Product, Project } from '../../db/entities';
import { RejectedError, ValidationError } from '../../domain/errors';
import { BINDINGS } from '../../domain/print-production';
import { coverGeometry, type CoverGeometry } from '../../imaging/print/cover-geometry';
import { evenPageBounds } from '../projects/book-builder';
import type { RequestContext } from '../context';

const SheetBoxView = Type.Object(
  {
    xMm: Type.Number(),
    yMm: Type.Number(),
    widthMm: Type.Number(),
    heightMm: Type.Number(),
    xPt: Type.Number(),
    yPt: Type.Number(),
    widthPt: Type.Number(),
    heightPt: Type.Number(),
  },
  {
    description:
      "A box on the sheet, from the sheet's top-left corner (x right, y down), in mm and PDF points (1/72 in)",
  },
);

export const CoverDimensionsView = Type.Object({
  sku: Type.String(),
  binding: Type.Enum(BINDINGS, { type: 'string' }),
  pages: Type.Integer({ description: 'Interior pages the sheet is computed for' }),
  widthMm: Type.Number({ description: 'The whole sheet, bleed included (the PDF MediaBox)' }),
  heightMm: Type.Number(),
  widthPt: Type.Number(),
  heightPt: Type.Number(),
  spineWidthMm: Type.Number({ description: 'Leaves x leafThicknessMm + 2 x boardThicknessMm' }),
  bleedMm: Type.Number(),
  wrapMm: Type.Number({ description: 'Turned in over the boards on every side; 0 for a softcover' }),
  hingeMm: Type.Number({ description: 'Between each board and the spine; 0 for a softcover' }),
  spineText: Type.Boolean({
    description: 'Whether the spine carries text (pages >= spineTextMinPages); a thinner spine is left blank',
  }),
  trim: SheetBoxView,
  back: SheetBoxView,
  spine: SheetBoxView,
  front: SheetBoxView,
});
export type CoverDimensionsView = Static<typeof CoverDimensionsView>;

/**
 * The cover sheet of a product for a page count: what the printed `cover.pdf` of such a book
 * measures. The page count must be one a book of the product can have: even, within its bounds.
 */
export async function coverDimensions(ctx: RequestContext, sku: string, pages: number): Promise<CoverDimensionsView> {
  const wanted = String(sku ?? '').trim();
  if (!wanted) throw ValidationError.field('sku', 'is required');
  const product = await ctx.em.findOne(Product, { sku: wanted });
  if (!product) throw new RejectedError('UNKNOWN_SKU', 'sku', `"${wanted}" is not a sku of this catalogue`);
  const { specifications } = product;
  const { minPages, maxPages } = evenPageBounds(specifications.min.pages, specifications.max.pages);
  if (!Number.isInteger(pages) || pages < minPages || pages > maxPages || pages % 2 !== 0) {
    throw ValidationError.field(
      'pages',
      `must be an even number of pages from ${minPages} to ${maxPages} for ${product.sku}`,
      'INVALID_PAGE_COUNT',
    );
  }
  return {
    sku: product.sku,
    ...coverGeometry(specifications.format, specifications.production, pages),
  } satisfies CoverDimensionsView & CoverGeometry;
}

/**
 * The cover sheet of a project's book as it is now (its product, its page count): what the editor
 * draws its spread from and what `cover.pdf` will measure. null while the book is not built, or
 * when its page count is not one a cover can have (the preflight says why).
 */
export async function projectCoverSheet(ctx: RequestContext, projectId: string): Promise<CoverDimensionsView | null> {
  const project = await ctx.em.findOne(Project, { id: projectId }, { populate: ['product', 'book'] });
  const pages = project?.book?.pages.length ?? 0;
  if (!project || pages < 2 || pages % 2 !== 0) return null;
  const { specifications } = project.product;
  return { sku: project.product.sku, ...coverGeometry(specifications.format, specifications.production, pages) };
}
