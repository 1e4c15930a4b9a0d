import { BINDINGS } from '../../domain/print-production';
import { Type, type Static } from 'typebox';

/**
 * The catalogue as one market sees it (products, categories, prices, currency), declared once:
 * REST validates, serialises and documents with these schemas, and the service's types are
 * derived from them.
 */
const RichText = Type.Array(
  Type.Object({
    type: Type.String(),
    text: Type.Optional(Type.String()),
    items: Type.Optional(Type.Array(Type.String())),
  }),
);

export const AttributeView = Type.Object({
  categoryId: Type.Optional(Type.Integer()),
  type: Type.String(),
  name: Type.String(),
  subtitle: Type.String(),
  carousel: Type.Optional(Type.Array(Type.Object({ image: Type.String(), caption: Type.String() }))),
  thumbnail: Type.String({ description: 'Path; prepend baseUrl' }),
  description: Type.String({ description: 'Single-string description; use this or descriptionJson' }),
  descriptionJson: RichText,
  order: Type.Integer(),
  tag: Type.Optional(Type.String()),
  topSeller: Type.Boolean(),
  disabled: Type.Boolean(),
});
export type AttributeView = Static<typeof AttributeView>;

const Bound = Type.Object({ photos: Type.Integer(), pages: Type.Integer() });

export const ProductView = Type.Object({
  id: Type.Integer(),
  sku: Type.String(),
  name: Type.String(),
  description: Type.String(),
  descriptionJson: RichText,
  metaTitle: Type.String(),
  thumbnail: Type.String({ description: 'Path; prepend baseUrl' }),
  payment: Type.Object({ prices: Type.Array(Type.Object({ price: Type.Number(), extraCostPerPage: Type.Number() })) }),
  attributes: Type.Array(AttributeView, { description: 'The first element is the parent category' }),
  specifications: Type.Object({
    min: Bound,
    max: Bound,
    psp: Type.Object({ name: Type.String(), leadTime: Type.Object({ value: Type.Number(), unit: Type.String() }) }),
    format: Type.Object(
      { widthMm: Type.Number(), heightMm: Type.Number(), bleedMm: Type.Number(), dpi: Type.Integer() },
      { description: 'Trim size of one page in millimetres, its bleed, and the print resolution' },
    ),
    production: Type.Object(
      {
        binding: Type.Enum(BINDINGS, {
          type: 'string',
          description: 'hardcover (case-wrap), softcover (perfect-bound) or layflat (case-wrap, mounted leaves)',
        }),
        leafThicknessMm: Type.Number({ description: 'Thickness of one leaf (two pages), mm' }),
        boardThicknessMm: Type.Number({
          description: 'Greyboard (case-wrap) or cover card (softcover) on each side of the block, mm',
        }),
        wrapMm: Type.Number({ description: 'Sheet turned in over the boards on every side, mm (0: softcover)' }),
        hingeMm: Type.Number({ description: 'Hinge between each board and the spine, mm (0: softcover)' }),
        spineTextMinPages: Type.Integer({ description: 'Fewer pages than this: the spine is left blank' }),
      },
      { description: 'Binding and the cover geometry it needs (docs/print-production.md)' },
    ),
  }),
  renderOptions: Type.Object({ productId: Type.String(), psp: Type.String() }),
  disabled: Type.Boolean(),
});
export type ProductView = Static<typeof ProductView>;

export const CatalogueView = Type.Object({
  baseUrl: Type.String(),
  pricesIncludeTax: Type.Boolean(),
  currency: Type.Object({ code: Type.String(), left: Type.String(), right: Type.String(), decimals: Type.Integer() }),
  products: Type.Array(ProductView),
  categories: Type.Array(
    Type.Object({
      categoryId: Type.Integer(),
      type: Type.String(),
      name: Type.String(),
      thumbnail: Type.String(),
      products: Type.Array(Type.Integer()),
    }),
  ),
});
export type CatalogueView = Static<typeof CatalogueView>;
