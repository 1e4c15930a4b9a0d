import { Ajv, type ErrorObject } from 'ajv';
import type { XStatic } from 'typebox/schema';
import { ValidationError, type FieldError } from '../../domain/errors';
import { BINDINGS, isCaseBound } from '../../domain/print-production';
import { continentOf } from '../markets/destination';

const localized = {
  type: 'object',
  required: ['en'],
  properties: { en: { type: 'string' } },
  propertyNames: { pattern: '^[a-z]{2}$' },
  additionalProperties: { type: 'string' },
} as const;
const richTextBlocks = {
  type: 'array',
  items: {
    type: 'object',
    required: ['type'],
    additionalProperties: false,
    properties: {
      type: { enum: ['heading', 'paragraph', 'list'] },
      text: { type: 'string' },
      items: { type: 'array', items: { type: 'string' } },
    },
  },
} as const;
const richText = {
  type: 'object',
  required: ['en'],
  properties: { en: richTextBlocks },
  propertyNames: { pattern: '^[a-z]{2}$' },
  additionalProperties: richTextBlocks,
} as const;
const id = { type: 'integer', minimum: 0 } as const;
const money = { type: 'number', minimum: 0 } as const;
const path = { type: 'string', minLength: 1, maxLength: 500 } as const;
const areaCode = { type: 'string', pattern: '^[A-Z]{2}$' } as const;
const days = { type: 'integer', minimum: 0, maximum: 365 } as const;
const shippingLevel = {
  type: 'object',
  required: ['code', 'name', 'prices', 'destinations'],
  additionalProperties: false,
  properties: {
    code: { type: 'string', pattern: '^[a-z][a-z0-9_-]{0,49}$' },
    name: localized,
    default: { type: 'boolean' },
    prices: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['currency', 'price'],
        additionalProperties: false,
        properties: { currency: { type: 'string', pattern: '^[A-Z]{3}$' }, price: money },
      },
    },
    destinations: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['isoCode2', 'transitDays'],
        additionalProperties: false,
        properties: {
          isoCode2: areaCode,
          transitDays: {
            type: 'object',
            required: ['min', 'max'],
            additionalProperties: false,
            properties: { min: days, max: days },
          },
        },
      },
    },
  },
} as const;
const taxRate = {
  type: 'object',
  required: ['isoCode2', 'rate'],
  additionalProperties: false,
  properties: { isoCode2: areaCode, rate: { type: 'number', minimum: 0, maximum: 100 } },
} as const;
/** What a category and a product attribute both are: a tile the shop shows, in its order. */
const tile = {
  type: 'object',
  required: ['name', 'subtitle', 'thumbnail', 'description', 'descriptionJson', 'order'],
  properties: {
    name: localized,
    subtitle: localized,
    thumbnail: path,
    description: localized,
    descriptionJson: richText,
    order: { type: 'integer' },
    tag: localized,
    topSeller: { type: 'boolean' },
    disabled: { type: 'boolean' },
  },
} as const;
export type CatalogueTile = XStatic<typeof tile>;
const bound = {
  type: 'object',
  required: ['photos', 'pages'],
  additionalProperties: false,
  properties: { photos: id, pages: { type: 'integer', minimum: 1 } },
} as const;

/** The JSON a client's catalogue is imported from (`catalogue/demo.json` is one): its one declaration, type and check. */
const catalogueFileSchema = {
  type: 'object',
  required: ['pricesIncludeTax', 'currencies', 'markets', 'categories', 'products'],
  additionalProperties: false,
  properties: {
    baseUrl: { type: 'string', pattern: '^https?://' },
    pricesIncludeTax: { type: 'boolean' },
    currencies: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['code', 'left', 'right', 'decimals'],
        additionalProperties: false,
        properties: {
          code: { type: 'string', pattern: '^[A-Z]{3}$' },
          left: { type: 'string', maxLength: 10 },
          right: { type: 'string', maxLength: 10 },
          decimals: { type: 'integer', minimum: 0, maximum: 4 },
        },
      },
    },
    markets: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['marketId', 'marketIdAlt', 'storeName', 'isoCode2', 'currency', 'shipsWithin'],
        additionalProperties: false,
        properties: {
          marketId: id,
          marketIdAlt: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_-]{0,49}$' },
          storeName: localized,
          isoCode2: { type: 'string', pattern: '^[A-Z]{2}$' },
          currency: { type: 'string', pattern: '^[A-Z]{3}$' },
          shipsWithin: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              required: ['isoCode2', 'name'],
              additionalProperties: false,
              properties: { isoCode2: { type: 'string', pattern: '^[A-Z]{2}$' }, name: localized },
            },
          },
          // How orders of this market ship; the quote lists the ones that reach the destination.
          shippingLevels: { type: 'array', maxItems: 20, items: shippingLevel },
          // Tax rates by destination country; a country not listed is taxed at 0.
          taxRates: { type: 'array', maxItems: 300, items: taxRate },
        },
      },
    },
    categories: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['categoryId', ...tile.required, 'carousel'],
        additionalProperties: false,
        properties: {
          categoryId: id,
          ...tile.properties,
          carousel: {
            type: 'array',
            items: {
              type: 'object',
              required: ['image', 'caption'],
              additionalProperties: false,
              properties: { image: path, caption: localized },
            },
          },
        },
      },
    },
    products: {
      type: 'array',
      items: {
        type: 'object',
        required: [
          'id',
          'sku',
          'v',
          'categoryId',
          'name',
          'metaTitle',
          'description',
          'descriptionJson',
          'thumbnail',
          'attributes',
          'specifications',
          'renderOptions',
          'prices',
        ],
        additionalProperties: false,
        properties: {
          id,
          sku: { type: 'string', minLength: 1, maxLength: 100 },
          v: { type: 'integer', minimum: 0 },
          categoryId: id,
          name: localized,
          metaTitle: localized,
          description: localized,
          descriptionJson: richText,
          thumbnail: path,
          disabled: { type: 'boolean' },
          attributes: {
            type: 'array',
            items: {
              type: 'object',
              required: ['type', ...tile.required],
              additionalProperties: false,
              properties: { type: { type: 'string', minLength: 1, maxLength: 50 }, ...tile.properties },
            },
          },
          specifications: {
            type: 'object',
            required: ['min', 'max', 'psp', 'format', 'production'],
            additionalProperties: false,
            properties: {
              min: bound,
              max: bound,
              psp: {
                type: 'object',
                required: ['name', 'leadTime'],
                additionalProperties: false,
                properties: {
                  name: { type: 'string', minLength: 1, maxLength: 50 },
                  leadTime: {
                    type: 'object',
                    required: ['value', 'unit'],
                    additionalProperties: false,
                    properties: { value: { type: 'number', minimum: 0 }, unit: { type: 'string' } },
                  },
                },
              },
              format: {
                type: 'object',
                required: ['widthMm', 'heightMm', 'bleedMm', 'dpi'],
                additionalProperties: false,
                properties: {
                  widthMm: { type: 'number', exclusiveMinimum: 0, maximum: 1000 },
                  heightMm: { type: 'number', exclusiveMinimum: 0, maximum: 1000 },
                  bleedMm: { type: 'number', minimum: 0, maximum: 20 },
                  dpi: { type: 'integer', minimum: 72, maximum: 1200 },
                },
              },
              production: {
                type: 'object',
                required: ['binding', 'leafThicknessMm', 'boardThicknessMm', 'wrapMm', 'hingeMm', 'spineTextMinPages'],
                additionalProperties: false,
                properties: {
                  binding: { enum: [...BINDINGS] },
                  // A sheet of paper is 0.04 mm at the thinnest; a mounted layflat leaf about 2 mm at the thickest.
                  leafThicknessMm: { type: 'number', minimum: 0.04, maximum: 3 },
                  boardThicknessMm: { type: 'number', minimum: 0, maximum: 5 },
                  wrapMm: { type: 'number', minimum: 0, maximum: 30 },
                  hingeMm: { type: 'number', minimum: 0, maximum: 20 },
                  spineTextMinPages: { type: 'integer', minimum: 2 },
                },
              },
            },
          },
          // The product's id at each print partner: Prodigi's sku, Gelato's productUid, Lulu's pod_package_id.
          partnerProducts: {
            type: 'object',
            additionalProperties: false,
            properties: {
              prodigi: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' },
              gelato: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' },
              lulu: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' },
            },
          },
          renderOptions: {
            type: 'object',
            required: ['productId', 'psp'],
            additionalProperties: false,
            properties: { productId: { type: 'string', minLength: 1 }, psp: { type: 'string', minLength: 1 } },
          },
          prices: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              required: ['marketId', 'price', 'extraCostPerPage'],
              additionalProperties: false,
              properties: { marketId: id, price: money, extraCostPerPage: money },
            },
          },
        },
      },
    },
  },
} as const;
export type CatalogueFile = XStatic<typeof catalogueFileSchema>;

const validateShape = new Ajv({ allErrors: true, strict: true }).compile<CatalogueFile>(catalogueFileSchema);

/** Checks a parsed catalogue file; throws a ValidationError listing every problem by JSON path. */
export function parseCatalogueFile(input: unknown): CatalogueFile {
  if (!validateShape(input)) {
    throw new ValidationError((validateShape.errors ?? []).map(ajvErrorToFieldError), 'INVALID_CATALOGUE');
  }
  const problems = crossReferenceProblems(input);
  if (problems.length > 0) throw new ValidationError(problems, 'INVALID_CATALOGUE');
  return input;
}

function ajvErrorToFieldError(error: ErrorObject): FieldError {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties') segments.push(String(error.params.additionalProperty));
  const path = segments.reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
  const message =
    error.keyword === 'additionalProperties'
      ? 'is not a known field'
      : error.keyword === 'required'
        ? 'is required'
        : (error.message ?? 'is invalid');
  return { path: path || '(body)', message };
}

function crossReferenceProblems(file: CatalogueFile): FieldError[] {
  const problems: FieldError[] = [];
  const duplicates = <T>(items: T[], key: (item: T) => unknown, label: string, field: string) => {
    const seen = new Set<unknown>();
    items.forEach((item, i) => {
      const value = key(item);
      if (seen.has(value))
        problems.push({ path: `${label}[${i}].${field}`, message: `duplicate ${field} ${JSON.stringify(value)}` });
      seen.add(value);
    });
  };
  duplicates(file.currencies, (c) => c.code, 'currencies', 'code');
  duplicates(file.markets, (m) => m.marketId, 'markets', 'marketId');
  duplicates(file.markets, (m) => m.marketIdAlt, 'markets', 'marketIdAlt');
  duplicates(file.categories, (c) => c.categoryId, 'categories', 'categoryId');
  duplicates(file.products, (p) => p.id, 'products', 'id');
  duplicates(file.products, (p) => p.sku, 'products', 'sku');

  const currencies = new Set(file.currencies.map((c) => c.code));
  const markets = new Set(file.markets.map((m) => m.marketId));
  const categories = new Set(file.categories.map((c) => c.categoryId));
  if (!markets.has(0)) problems.push({ path: 'markets', message: 'must contain the default market 0' });
  const decimalsOf = new Map(file.currencies.map((c) => [c.code, c.decimals]));
  const moneyProblem = (amount: number, currency: string, path: string) => {
    const decimals = decimalsOf.get(currency);
    if (decimals !== undefined && decimalPlaces(amount) > decimals)
      problems.push({ path, message: `has more decimals than ${currency} (${decimals})` });
  };
  file.markets.forEach((m, i) => {
    if (!currencies.has(m.currency))
      problems.push({ path: `markets[${i}].currency`, message: `unknown currency ${m.currency}` });
    problems.push(...shippingLevelProblems(m, `markets[${i}]`));
    (m.shippingLevels ?? []).forEach((level, j) =>
      level.prices.forEach((price, k) =>
        moneyProblem(price.price, price.currency, `markets[${i}].shippingLevels[${j}].prices[${k}].price`),
      ),
    );
    duplicates(m.taxRates ?? [], (t) => t.isoCode2, `markets[${i}].taxRates`, 'isoCode2');
    (m.taxRates ?? []).forEach((t, j) => {
      if (decimalPlaces(t.rate) > 3)
        problems.push({ path: `markets[${i}].taxRates[${j}].rate`, message: 'has more than 3 decimals' });
    });
  });
  const currencyOfMarket = new Map(file.markets.map((m) => [m.marketId, m.currency]));
  file.products.forEach((p, i) => {
    if (!categories.has(p.categoryId))
      problems.push({ path: `products[${i}].categoryId`, message: `unknown category ${p.categoryId}` });
    const { min, max } = p.specifications;
    if (min.pages > max.pages)
      problems.push({ path: `products[${i}].specifications.min.pages`, message: 'is greater than max.pages' });
    if (min.photos > max.photos)
      problems.push({ path: `products[${i}].specifications.min.photos`, message: 'is greater than max.photos' });
    problems.push(...productionProblems(p.specifications.production, `products[${i}].specifications.production`));
    const priced = new Set(p.prices.map((price) => price.marketId));
    p.prices.forEach((price, j) => {
      if (!markets.has(price.marketId))
        problems.push({ path: `products[${i}].prices[${j}].marketId`, message: `unknown market ${price.marketId}` });
      const currency = currencyOfMarket.get(price.marketId);
      if (currency) {
        moneyProblem(price.price, currency, `products[${i}].prices[${j}].price`);
        moneyProblem(price.extraCostPerPage, currency, `products[${i}].prices[${j}].extraCostPerPage`);
      }
    });
    for (const marketId of markets) {
      if (!priced.has(marketId))
        problems.push({ path: `products[${i}].prices`, message: `has no price for market ${marketId}` });
    }
  });
  return problems;
}

/** A case-wrap cover needs greyboard, a wrap and a hinge; a softcover sheet has neither wrap nor hinge to print. */
function productionProblems(
  production: CatalogueFile['products'][number]['specifications']['production'],
  at: string,
): FieldError[] {
  const problems: FieldError[] = [];
  if (isCaseBound(production.binding)) {
    if (production.boardThicknessMm < 1)
      problems.push({
        path: `${at}.boardThicknessMm`,
        message: `must be at least 1 mm of greyboard for a ${production.binding} binding`,
      });
    if (production.wrapMm < 5)
      problems.push({
        path: `${at}.wrapMm`,
        message: `must be at least 5 mm to turn in over the boards of a ${production.binding} binding`,
      });
    if (production.hingeMm <= 0)
      problems.push({ path: `${at}.hingeMm`, message: `must be more than 0 for a ${production.binding} binding` });
  } else {
    if (production.wrapMm !== 0)
      problems.push({ path: `${at}.wrapMm`, message: 'must be 0 for a softcover: its sheet does not turn in' });
    if (production.hingeMm !== 0)
      problems.push({ path: `${at}.hingeMm`, message: 'must be 0 for a softcover: it has no hinge' });
  }
  return problems;
}

/**
 * A market's levels: codes unique, at most one marked default, a price in the market's currency,
 * transit ranges the right way round, and destinations inside the market's `shipsWithin`.
 */
function shippingLevelProblems(market: CatalogueFile['markets'][number], at: string): FieldError[] {
  const problems: FieldError[] = [];
  const levels = market.shippingLevels ?? [];
  const codes = new Set<string>();
  const areas = new Set(market.shipsWithin.map((area) => area.isoCode2));
  levels.forEach((level, j) => {
    const path = `${at}.shippingLevels[${j}]`;
    if (codes.has(level.code))
      problems.push({ path: `${path}.code`, message: `duplicate code ${JSON.stringify(level.code)}` });
    codes.add(level.code);
    if (!level.prices.some((p) => p.currency === market.currency))
      problems.push({ path: `${path}.prices`, message: `has no price in the market's currency ${market.currency}` });
    level.destinations.forEach((destination, k) => {
      if (destination.transitDays.min > destination.transitDays.max) {
        problems.push({
          path: `${path}.destinations[${k}].transitDays.min`,
          message: 'is greater than transitDays.max',
        });
      }
      if (!areas.has(destination.isoCode2) && !areas.has(continentOf(destination.isoCode2) ?? '')) {
        problems.push({
          path: `${path}.destinations[${k}].isoCode2`,
          message: `${destination.isoCode2} is outside the market's shipsWithin`,
        });
      }
    });
  });
  if (levels.filter((level) => level.default).length > 1)
    problems.push({ path: `${at}.shippingLevels`, message: 'marks more than one level as default' });
  return problems;
}

/** Decimal places of a number as JSON wrote it (19.99 -> 2, 3200 -> 0, 1e-7 -> 7). */
function decimalPlaces(amount: number): number {
  const [mantissa, exponent = '0'] = String(amount).toLowerCase().split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}
