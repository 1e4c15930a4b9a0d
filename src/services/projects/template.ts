/**
 * The assets of the starting template that `custom` values may fill, by id. Text assets take a
 * string; image assets take a public image URL, downloaded like any photo.
 */
export const TEMPLATE_ASSETS = {
  title: { kind: 'text', maxLength: 120, description: 'Cover title; also the project title' },
  subtitle: { kind: 'text', maxLength: 160, description: 'Cover subtitle' },
  spine: { kind: 'text', maxLength: 60, description: 'Spine text' },
  dedication: { kind: 'text', maxLength: 500, description: 'Text on the first page' },
  backCover: { kind: 'text', maxLength: 500, description: 'Back cover text' },
  coverPhoto: { kind: 'image', description: 'Cover photo, instead of the best-scored photo' },
} as const;

export type TemplateAssetId = keyof typeof TEMPLATE_ASSETS;

export function isTemplateAsset(id: string): id is TemplateAssetId {
  return Object.hasOwn(TEMPLATE_ASSETS, id);
}
