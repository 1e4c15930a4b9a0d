import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { Project } from '../../db/entities';
import type { Tenant } from '../context';
import { randomBase62 } from './project-ids';

/** A project as its editor link is made from: its id and the seed of its key. */
export type LinkedProject = Pick<Project, 'id' | 'editorKeySeed'>;

/** The query parameter (next to `id`), header and `connection_init` field that carry the editor key. */
const EDITOR_KEY_PARAMETER = 'editorKey';

/** 24 bytes of HMAC, 32 base64url characters: as hard to guess as a client secret. */
const KEY_CHARACTERS = 32;

/**
 * Keys kept per process (about 150 bytes each): a list of 100 projects hands out 100 links, and
 * computing each key again was the largest part of a list's CPU on projects as users make them
 * (docs/performance.md). A key depends only on the project's id and seed, so a kept one never goes stale.
 */
const KEPT_KEYS = 20_000;

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
  private readonly hmacKey: KeyObject;
  private readonly keys = new Map<string, string>();
  /** FRONTEND_URL without its query and fragment, and its fragment: a link is the two around its query. */
  private readonly base: string;
  private readonly fragment: string;

  constructor(frontendUrl: string, pepper: string) {
    // Its own key, so an editor key is never a digest some other credential check computes.
    this.hmacKey = createSecretKey(createHmac('sha256', pepper).update('photobook editor link keys').digest());
    const url = new URL(frontendUrl);
    this.fragment = url.hash;
    url.hash = '';
    url.search = '';
    this.base = url.toString();
  }

  keyOf(project: LinkedProject): string {
    const message = `${project.id}\u0000${project.editorKeySeed}`;
    let key = this.keys.get(message);
    if (key === undefined) {
      key = createHmac('sha256', this.hmacKey).update(message).digest('base64url').slice(0, KEY_CHARACTERS);
      // The oldest kept key makes room (a Map iterates in insertion order).
      if (this.keys.size >= KEPT_KEYS) this.keys.delete(this.keys.keys().next().value!);
      this.keys.set(message, key);
    }
    return key;
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

  /** As `new URL(FRONTEND_URL)` with this search would print it: form-encoded values need no more escaping in a query. */
  private url(query: Record<string, string>): string {
    return `${this.base}?${new URLSearchParams(query)}${this.fragment}`;
  }
}
