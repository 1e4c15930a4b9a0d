import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Project } from '../../db/entities';
import type { Tenant } from '../context';
import { randomBase62 } from './project-ids';

/** A project as its editor link is made from: its id and the seed of its key. */
export type LinkedProject = Pick<Project, 'id' | 'editorKeySeed'>;

/** The query parameter (next to `id`), header and `connection_init` field that carry the editor key. */
const EDITOR_KEY_PARAMETER = 'editorKey';

/** 24 bytes of HMAC, 32 base64url characters: as hard to guess as a client secret. */
const KEY_CHARACTERS = 32;

/** A new seed for a project's editor key: a new seed ends every link made from the old one. */
export function newEditorKeySeed(): string {
  return randomBase62(24);
}

/**
 * The editor link, `FRONTEND_URL?id=<projectId>&editorKey=<key>` (docs/api.md, Editor URL): the
 * project id names the project, the key opens it. The key is derived, not stored: an HMAC of the
 * project id and the project's random `editorKeySeed` under a key of its own derived from the
 * credential pepper. So the database holds nothing that opens a project (as client secrets are
 * kept only as digests), yet every listing can hand out the working link, and a new seed (a
 * transfer to another owner) ends the old link at once, in every process.
 */
export class EditorLinks {
  private readonly hmacKey: Buffer;

  constructor(
    private readonly frontendUrl: string,
    pepper: string,
  ) {
    // Its own key, so an editor key is never a digest some other credential check computes.
    this.hmacKey = createHmac('sha256', pepper).update('photobook editor link keys').digest();
  }

  keyOf(project: LinkedProject): string {
    return createHmac('sha256', this.hmacKey)
      .update(`${project.id}\u0000${project.editorKeySeed}`)
      .digest('base64url')
      .slice(0, KEY_CHARACTERS);
  }

  /** Whether `presented` is the project's current key (compared in constant time). */
  opens(project: LinkedProject, presented: unknown): boolean {
    if (typeof presented !== 'string' || presented.length !== KEY_CHARACTERS) return false;
    return timingSafeEqual(Buffer.from(this.keyOf(project)), Buffer.from(presented));
  }

  /** The short link project objects carry as `link`. */
  link(project: LinkedProject): string {
    return this.url({ id: project.id, [EDITOR_KEY_PARAMETER]: this.keyOf(project) });
  }

  /** The link with the editor's whole query, as generate and the `project.ready` webhook answer it. */
  editorUrl(
    tenant: Pick<Tenant, 'clientId' | 'clientName'>,
    project: LinkedProject &
      Pick<Project, 'language' | 'sku' | 'psp'> & { market: Pick<Project['market'], 'marketId'> },
    user: string,
  ): string {
    return this.url({
      id: project.id,
      [EDITOR_KEY_PARAMETER]: this.keyOf(project),
      clientId: tenant.clientId,
      clientName: tenant.clientName,
      user,
      product: 'true',
      marketId: String(project.market.marketId),
      language: project.language,
      sku: project.sku,
      psp: project.psp,
    });
  }

  private url(query: Record<string, string>): string {
    const url = new URL(this.frontendUrl);
    url.search = new URLSearchParams(query).toString();
    return url.toString();
  }
}
