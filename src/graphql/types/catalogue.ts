import { Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'One block of a structured description' })
export class RichTextBlock {
  @Field(() => String, { description: 'heading, paragraph or list' })
  type!: string;

  @Field(() => String, { nullable: true })
  text?: string;

  @Field(() => [String], { nullable: true })
  items?: string[];
}

@ObjectType({ description: 'How prices are displayed: left + value with `decimals` places + right' })
export class Currency {
  @Field(() => String) code!: string;
  @Field(() => String) left!: string;
  @Field(() => String) right!: string;
  @Field(() => Int) decimals!: number;
}

@ObjectType()
export class Price {
  @Field(() => Float, { description: 'Base price in the market currency' })
  price!: number;

  @Field(() => Float, { description: 'Cost per page beyond the base pages' })
  extraCostPerPage!: number;
}

@ObjectType()
export class ProductPayment {
  @Field(() => [Price]) prices!: Price[];
}

@ObjectType()
export class CarouselSlide {
  @Field(() => String, { description: 'Path; prepend baseUrl' }) image!: string;
  @Field(() => String) caption!: string;
}

@ObjectType({ description: 'A category (first) or a variation such as the size of a product' })
export class Attribute {
  @Field(() => Int, { nullable: true, description: 'Category entries only' }) categoryId?: number;
  @Field(() => String, { description: '`category` for categories, otherwise the variation type (size...)' })
  type!: string;
  @Field(() => String) name!: string;
  @Field(() => String) subtitle!: string;
  @Field(() => [CarouselSlide], { nullable: true }) carousel?: CarouselSlide[];
  @Field(() => String, { description: 'Path; prepend baseUrl' }) thumbnail!: string;
  @Field(() => String, { description: 'Single-string description; use this or descriptionJson' }) description!: string;
  @Field(() => [RichTextBlock]) descriptionJson!: RichTextBlock[];
  @Field(() => Int) order!: number;
  @Field(() => String, { nullable: true }) tag?: string;
  @Field(() => Boolean) topSeller!: boolean;
  @Field(() => Boolean) disabled!: boolean;
}

@ObjectType()
export class Bound {
  @Field(() => Int) photos!: number;
  @Field(() => Int) pages!: number;
}

@ObjectType()
export class LeadTime {
  @Field(() => Float) value!: number;
  @Field(() => String) unit!: string;
}

@ObjectType()
export class Printer {
  @Field(() => String) name!: string;
  @Field(() => LeadTime) leadTime!: LeadTime;
}

@ObjectType({ description: 'Trim size of one page, its bleed and the print resolution' })
export class PageFormat {
  @Field(() => Float) widthMm!: number;
  @Field(() => Float) heightMm!: number;
  @Field(() => Float) bleedMm!: number;
  @Field(() => Int) dpi!: number;
}

@ObjectType({ description: 'Binding and the cover geometry it needs (docs/print-production.md)' })
export class Production {
  @Field(() => String, {
    description: 'hardcover (case-wrap), softcover (perfect-bound) or layflat (case-wrap, mounted leaves)',
  })
  binding!: string;
  @Field(() => Float, { description: 'Thickness of one leaf (two pages), mm' }) leafThicknessMm!: number;
  @Field(() => Float, { description: 'Greyboard (case-wrap) or cover card (softcover) on each side of the block, mm' })
  boardThicknessMm!: number;
  @Field(() => Float, { description: 'Sheet turned in over the boards on every side, mm (0: softcover)' })
  wrapMm!: number;
  @Field(() => Float, { description: 'Hinge between each board and the spine, mm (0: softcover)' }) hingeMm!: number;
  @Field(() => Int, { description: 'Fewer pages than this: the spine is left blank' }) spineTextMinPages!: number;
}

@ObjectType()
export class Specifications {
  @Field(() => Bound) min!: Bound;
  @Field(() => Bound) max!: Bound;
  @Field(() => Printer) psp!: Printer;
  @Field(() => PageFormat) format!: PageFormat;
  @Field(() => Production) production!: Production;
}

@ObjectType({ description: 'Values to use in generate and print calls' })
export class RenderOptions {
  @Field(() => String) productId!: string;
  @Field(() => String) psp!: string;
}

@ObjectType()
export class Product {
  @Field(() => Int) id!: number;
  @Field(() => String) sku!: string;
  @Field(() => String) name!: string;
  @Field(() => String) description!: string;
  @Field(() => [RichTextBlock]) descriptionJson!: RichTextBlock[];
  @Field(() => String) metaTitle!: string;
  @Field(() => String, { description: 'Path; prepend baseUrl' }) thumbnail!: string;
  @Field(() => ProductPayment) payment!: ProductPayment;
  @Field(() => [Attribute], { description: 'The first element is the parent category' }) attributes!: Attribute[];
  @Field(() => Specifications) specifications!: Specifications;
  @Field(() => RenderOptions) renderOptions!: RenderOptions;
  @Field(() => Boolean, { description: 'Shown greyed out (upcoming product)' }) disabled!: boolean;
}

@ObjectType()
export class CategoryEntry {
  @Field(() => Int) categoryId!: number;
  @Field(() => String) type!: string;
  @Field(() => String) name!: string;
  @Field(() => String) thumbnail!: string;
  @Field(() => [Int], { description: 'Ids of the products in this category' }) products!: number[];
}

@ObjectType({ description: 'The catalogue as one market sees it' })
export class Catalogue {
  @Field(() => String, { description: 'Prepend to image paths' }) baseUrl!: string;
  @Field(() => Boolean) pricesIncludeTax!: boolean;
  @Field(() => Currency) currency!: Currency;
  @Field(() => [Product]) products!: Product[];
  @Field(() => [CategoryEntry]) categories!: CategoryEntry[];
}
