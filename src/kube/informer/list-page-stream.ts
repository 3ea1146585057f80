import { StringDecoder } from 'node:string_decoder';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { Query } from '../transport/request-url.js';
import type { KubeTransport } from '../transport/transport.js';
import { ListItemSplitter } from './list-splitter.js';

/** What the reflector keeps of a list page once its items were handed out. */
export interface ListPageMetadata {
  resourceVersion?: string;
  /** The token of the next page; empty or absent on the last one. */
  continue?: string;
}

/**
 * Output buffer of the gzip stream. Every filled buffer is one more trip through the libuv thread pool, and
 * a page of 5,000 Applications inflates to several megabytes, so the default 16 kB would mean hundreds of trips.
 */
const INFLATE_CHUNK_BYTES = 256 * 1024;

/**
 * `GET path?query` of one list page, read as it arrives: every item is parsed and handed to `onItem` while
 * the API server is still encoding the rest (it streams list answers), so parsing overlaps the server's work
 * instead of following it, and the page is never held as one string. Resolves with the page's metadata.
 * A body that is not a JSON list fails with an error naming the collection; no item of it counts, because
 * the caller only keeps a list whose every page completed.
 */
export async function streamListPage(
  transport: KubeTransport,
  path: string,
  query: Query,
  signal: AbortSignal,
  onItem: (item: unknown) => void,
): Promise<ListPageMetadata> {
  // gzip: uncompressed, the API server writes a list in thousands of small TLS records, which costs it and
  // us more CPU than compressing does.
  const response = await transport.stream(path, query, signal, { gzip: true });
  const encoding = response.headers['content-encoding'];
  if (encoding && encoding !== 'identity' && encoding !== 'gzip') {
    response.destroy();
    throw new Error(`GET ${path}: the server answered with content-encoding "${encoding}", which was not asked for`);
  }
  // The streams of a finished page stay reachable until their socket has closed, and they reach this callback:
  // cut it loose at the end, or it would keep the caller's items (a whole cache) alive that long.
  let deliver: ((item: unknown) => void) | undefined = onItem;
  const splitter = new ListItemSplitter((text) => deliver?.(JSON.parse(text)));
  const decoder = new StringDecoder('utf8');
  const consume = async (body: AsyncIterable<Buffer>): Promise<void> => {
    for await (const chunk of body) splitter.push(decoder.write(chunk));
    splitter.push(decoder.end());
  };
  try {
    if (encoding === 'gzip') await pipeline(response, createGunzip({ chunkSize: INFLATE_CHUNK_BYTES }), consume);
    else await pipeline(response, consume);
    return metadataOf(splitter.end());
  } catch (error) {
    if (error instanceof SyntaxError)
      throw new Error(`GET ${path}: the server sent a body that is not a JSON list (${error.message}, after ${splitter.count} items)`, { cause: error });
    throw error;
  } finally {
    deliver = undefined;
  }
}

function metadataOf(envelope: Record<string, unknown>): ListPageMetadata {
  const metadata = envelope.metadata as Record<string, unknown> | undefined;
  const resourceVersion = metadata?.resourceVersion;
  const token = metadata?.continue;
  return { resourceVersion: typeof resourceVersion === 'string' ? resourceVersion : undefined, continue: typeof token === 'string' ? token : undefined };
}
