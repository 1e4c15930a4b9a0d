/**
 * The body a shop receives when a project is ready (docs/api.md, Outbound webhooks): the editor URL, the shop's reference,
 * and the URL taken apart, so a receiver need not parse it. Every member is read from `url`
 * itself, so the two can never disagree.
 */
export interface ProjectReadyBody {
  url: string;
  reference: string;
  protocol: string;
  hostname: string;
  pathname: string;
  query: {
    id: string;
    /** With `id`, what opens the project in the editor (docs/api.md, Editor URL). */
    editorKey: string;
    clientId: string;
    clientName: string;
    user: string;
    product: boolean;
    marketId: string;
    language: string;
    sku: string;
    psp: string;
  };
}

export function projectReadyBody(editorUrl: string, reference: string): ProjectReadyBody {
  const url = new URL(editorUrl);
  const q = (name: string) => url.searchParams.get(name) ?? '';
  return {
    url: editorUrl,
    reference,
    protocol: url.protocol,
    hostname: url.hostname,
    pathname: url.pathname,
    query: {
      id: q('id'),
      editorKey: q('editorKey'),
      clientId: q('clientId'),
      clientName: q('clientName'),
      user: q('user'),
      product: q('product') === 'true',
      marketId: q('marketId'),
      language: q('language'),
      sku: q('sku'),
      psp: q('psp'),
    },
  };
}
