import { parse, type DocumentNode, type Source } from 'graphql';
import { LRUCache } from 'lru-cache';

/**
 * Total length of the operation texts whose documents are kept: over a thousand ordinary operations.
 * A document takes about a hundred times its text's length, and a client may send any text that
 * parses, so this bounds the cache at about 25 MiB.
 */
const MAX_KEPT_TEXT = 256 * 1024;

/**
 * graphql-ws's parse, with one document for every subscription that sends the same text. Parsed
 * per subscription, every dashboard on one query would hold its own copy of the tokens, locations
 * and nodes, most of a subscription's memory (docs/performance.md). graphql-js never changes a
 * document, so sharing one is safe; the least recently used are dropped past 256 KiB of text.
 */
export function sharedDocumentParser(): (source: string | Source) => DocumentNode {
  const documents = new LRUCache<string, DocumentNode>({
    maxSize: MAX_KEPT_TEXT,
    sizeCalculation: (_document, text) => Math.max(1, text.length),
  });
  return (source) => {
    const text = typeof source === 'string' ? source : source.body;
    let document = documents.get(text);
    if (!document) {
      document = parse(text);
      if (text.length <= MAX_KEPT_TEXT) documents.set(text, document);
    }
    return document;
  };
}
