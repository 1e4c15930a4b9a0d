import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context';
import { ValidationError, type FieldError } from '../../domain/errors';
import { resolveMarket, resolveProduct } from '../catalogue/catalogue-lookup';
import { isTemplateAsset, TEMPLATE_ASSETS } from './template';
import { parsePhotos, isHttpUrl } from './photo-input';
import { checkUserId, endUserIdFor, normaliseEmail } from './user-identity';
import { newGeneratedUserId, newProjectId } from './project-ids';
import { newEditorKeySeed } from './editor-links';
import { projectStatusChange } from './project-events';
import type { ProjectRecord } from './project-view';
import { appendStatusEvent } from '../../events/status-event-log';
import { photosStatusOf } from '../../domain/project-status';
import { LAYOUT_TYPES, type LayoutType } from '../../domain/book';
import type { ProjectServiceDeps } from './project-service-deps';
import { PROJECT_BUILD_FLOW } from '../../domain/flows';
import { freeformLimitError, unsafeTextError } from '../../domain/safe-text';
import type { GenerateInput } from './generate-input';

export interface GenerateResult {
  url: string;
  project: ProjectRecord;
}

const LANGUAGE = /^[A-Za-z]{2}(?:[-_][A-Za-z0-9]{2,8})*$/;

/**
 * docs/api.md, Generate: validates everything before writing, creates the project and its photos in one
 * transaction, then starts the build flow (download, analyse, lay out, preview).
 */
export async function generateProject(
  ctx: RequestContext,
  deps: ProjectServiceDeps,
  input: GenerateInput,
  /** A campaign decides the id up front, so that a retried row makes the same project. */
  options: { projectId?: string } = {},
): Promise<GenerateResult> {
  // Transports refuse unsafe text at their door; a campaign row comes from a downloaded CSV.
  const problems = [
    unsafeTextError(input, ''),
    freeformLimitError(input.metadata, 'metadata'),
    freeformLimitError(input.custom, 'custom'),
  ];
  if (problems.some(Boolean)) throw new ValidationError(problems.filter((p): p is FieldError => p !== null));
  const owner = ownerOf(input);
  const language = input.language ?? 'en';
  if (!LANGUAGE.test(language)) throw ValidationError.field('language', 'must be a language code such as en or de-DE');
  const layoutType = (input.layoutType ?? 'fastbook') as LayoutType;
  if (!LAYOUT_TYPES.includes(layoutType))
    throw ValidationError.field('layoutType', `must be one of ${LAYOUT_TYPES.join(', ')}`);
  const photos = parsePhotos(input.photos, 'photos');
  const custom = parseCustom(input.custom);
  const callbackUrl = checkCallback(input.callback) ?? null;
  const [product, market] = await Promise.all([
    resolveProduct(ctx, input.sku, input.psp),
    resolveMarket(ctx, input.marketId),
  ]);

  // Plain SQL: the hot write path, where entities' unit of work costs more than the writes
  // (docs/performance.md). The rows name their tenant; the catalogue
  // reads above went through the tenant filter.
  const now = new Date();
  const project: ProjectRecord = {
    id: options.projectId ?? newProjectId(),
    editorKeySeed: newEditorKeySeed(),
    title: null,
    sku: product.sku,
    psp: product.specifications.psp.name,
    previewKey: null,
    status: 'created',
    photosStatus: photosStatusOf(photos.map(() => ({ status: 'uploading' as const }))),
    ordered: false,
    createdAt: now,
    updatedAt: now,
    expiresAt: new Date(now.getTime() + deps.config.durations.projectTtlMs),
    market: { marketId: market.marketId, marketIdAlt: market.marketIdAlt },
    owner: { externalId: owner.externalId },
  };
  const photoRows = [
    ...photos.map((photo, position) => [
      randomUUID(),
      project.id,
      photo.clientPhotoId ?? null,
      photo.url,
      null,
      position,
      now,
    ]),
    ...Object.entries(custom.images).map(([assetId, url], i) => [
      randomUUID(),
      project.id,
      null,
      url,
      assetId,
      photos.length + i,
      now,
    ]),
  ];
  const db = ctx.db;
  await db.transactional(async (trx) => {
    const ownerId = await endUserIdFor(db, trx, ctx.tenant, owner.externalId, owner.email);
    await db.execute(
      `INSERT INTO projects (id, client_id, env, owner_id, product_id, market_id, sku, psp, language, layout_type, e_commerce_plugin,
                             metadata, custom, callback_url, status, photos_status, ordered, created_at, updated_at, expires_at, editor_key_seed)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        project.id,
        ctx.tenant.clientId,
        ctx.tenant.env,
        ownerId,
        product.id,
        market.id,
        project.sku,
        project.psp,
        language,
        layoutType,
        input.eCommercePlugin ?? false,
        JSON.stringify(input.metadata ?? {}),
        JSON.stringify(custom.texts),
        callbackUrl,
        project.status,
        project.photosStatus,
        false,
        now,
        now,
        project.expiresAt,
        project.editorKeySeed,
      ],
      'run',
      trx,
    );
    if (photoRows.length > 0) {
      await db.execute(
        `INSERT INTO photos (id, project_id, client_photo_id, url, asset_id, position, created_at)
         VALUES ${photoRows.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        photoRows.flat(),
        'run',
        trx,
      );
    }
    const tenant = { clientId: ctx.tenant.clientId, env: ctx.tenant.env };
    await appendStatusEvent(db, trx, tenant, projectStatusChange({ ...project, ownerExternalId: owner.externalId }));
  });

  await deps.engine.start(PROJECT_BUILD_FLOW, { projectId: project.id }, { tenant: ctx.tenant });
  return { url: deps.editorLinks.editorUrl(ctx.tenant, { ...project, language }, owner.externalId), project };
}

function ownerOf(input: GenerateInput): { externalId: string; email: string | null } {
  const hasEmail = input.email !== undefined && input.email !== null;
  const hasUserId = input.userId !== undefined && input.userId !== null;
  if (hasEmail && hasUserId) {
    throw new ValidationError(
      [
        { path: 'email', message: 'give either email or userId, not both' },
        { path: 'userId', message: 'give either email or userId, not both' },
      ],
      'AMBIGUOUS_OWNER',
    );
  }
  if (hasEmail) {
    const email = normaliseEmail(String(input.email), 'email');
    return { externalId: email, email };
  }
  if (hasUserId) return { externalId: checkUserId(String(input.userId), 'userId'), email: null };
  return { externalId: newGeneratedUserId(), email: null };
}

/** `custom` as `{assetId: value}` or `[{id, value}]`; text assets keep strings, image assets URLs. */
function parseCustom(custom: GenerateInput['custom']): {
  texts: Record<string, string>;
  images: Record<string, string>;
} {
  const texts: Record<string, string> = {};
  const images: Record<string, string> = {};
  if (custom === undefined || custom === null) return { texts, images };
  const entries: [string, unknown, string][] = Array.isArray(custom)
    ? custom.map((entry, i) => [
        String((entry as { id?: unknown })?.id ?? ''),
        (entry as { value?: unknown })?.value,
        `custom[${i}]`,
      ])
    : typeof custom === 'object'
      ? Object.entries(custom).map(([id, value]) => [id, value, `custom.${id}`])
      : [];
  if (!Array.isArray(custom) && typeof custom !== 'object')
    throw ValidationError.field('custom', 'must be an object or an array of {id, value}');
  const errors: FieldError[] = [];
  for (const [id, value, path] of entries) {
    if (!id) {
      errors.push({ path: `${path}.id`, message: 'is required' });
      continue;
    }
    if (typeof value !== 'string') {
      errors.push({ path, message: 'must be a string (text or an image URL)' });
      continue;
    }
    const asset = isTemplateAsset(id) ? TEMPLATE_ASSETS[id] : undefined;
    if (asset?.kind === 'image') {
      if (!isHttpUrl(value)) errors.push({ path, message: 'must be an absolute http(s) image URL' });
      else images[id] = value;
    } else {
      // Unknown ids are kept: asset names are agreed out of band and templates may grow.
      texts[id] = value;
    }
  }
  if (errors.length > 0) throw new ValidationError(errors);
  return { texts, images };
}

/** A project's callback URL (generate, duplicate, transfer): where its ready event is posted. */
export function checkCallback(callback: string | undefined): string | undefined {
  if (callback === undefined || callback === null) return undefined;
  if (typeof callback !== 'string' || !isHttpUrl(callback))
    throw ValidationError.field('callback', 'must be an absolute http(s) URL');
  return callback;
}
