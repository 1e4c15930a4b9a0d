import { parse, type DocumentNode, type Source } from 'graphql';
import { LRUCache } from 'lru-cache';

/**
 * Total length of the operation texts whose documents are kept: over a thousand ordinary operations.
 * A document takes about a hundred times its text's length (13 KiB for the bench's 130-character
 * subscription), and a client may send any text that parses, so this bounds the cache at about
 * 25 MiB.
 */
const MAX_KEPT_TEXT = 256 * 1024;

/**
 * graphql-ws's parse, with one document for every subscription that sends the same text. Parsed
 * per subscription, 10,000 dashboards on one query held 10,000 copies of its tokens, locations and
 * nodes, about 13 KiB each (README, Performance). graphql-js never changes a document, so sharing
 * one is safe; the least recently used are dropped past 256 KiB of text.
 */
export function sharedDocumentParser(): (source: string | Source) => DocumentNode {
  const documents = new LRUCache<string, DocumentNode>({ maxSize: MAX_KEPT_TEXT, sizeCalculation: (_document, text) => Math.max(1, text.length) });
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
