import type { Logger } from 'pino';
import { Backoff, sleepUnlessAborted, type BackoffOptions } from './backoff.js';
import { errorFromStatus, GoneError, KubeApiError, type KubeStatus } from '../transport/api-errors.js';
import type { Query } from '../transport/request-url.js';
import type { KubeTransport } from '../transport/transport.js';
import { streamListPage, type ListPageMetadata } from './list-page-stream.js';
import { SharingFreezer } from './freeze.js';
import type { KubeObject } from './kube-object.js';
import { SilenceError, streamWatch, type WatchEvent } from './watch-stream.js';
import { AppsetError } from '../../model/errors.js';

/** Where the reflector delivers what it learns; the informer's store and event fan-out. */
export interface ReflectorSink<T extends KubeObject> {
  /** A complete list: the store must become exactly `items`. */
  replace(items: T[]): void;
  /** A watched object was added or changed. */
  upsert(object: T): void;
  /** A watched object was deleted (its final state). */
  remove(object: T): void;
}

/**
 * Objects per list page unless configured. Larger than client-go's 500 because the API server answers these
 * lists from its watch cache, where a page costs it a fixed few milliseconds plus work in proportion to the
 * objects still after the page (measured on kube-apiserver 1.35 with 10,000 Applications: a continued page of
 * one object costs 5 ms of server CPU at the start of the list, 1.7 ms half-way). Pages of 500 made the server
 * spend 1.7x the CPU of one whole list, pages of 5,000 about 1.2x, while still bounding one answer's size
 * (bench/README.md).
 */
export const DEFAULT_PAGE_SIZE = 5000;

/** Tuning knobs of a reflector; the defaults suit production. */
export interface ReflectorTuning {
  /** Objects per list page (`limit`); default {@link DEFAULT_PAGE_SIZE}. */
  pageSize?: number;
  /** Each watch asks the server to end it after a random time in this range; default 300..600 s. */
  watchTimeoutSeconds?: { min: number; max: number };
  /** Watchdog bound: a stream silent this long is restarted; default 150 s (bookmarks arrive about every minute). */
  silenceMs?: number;
  /** Bound of one list page request; default 60 s. */
  requestTimeoutMs?: number;
  /** Retry delays after connection errors, 429 and 5xx; default 0.8 s doubling to 30 s. */
  backoff?: BackoffOptions;
}

/** What the reflector reports for health checks and tests. */
export interface ReflectorStats {
  synced: boolean;
  /** True while a watch stream is open and answered. */
  watching: boolean;
  /** Epoch ms of the last byte received from the server. */
  lastHeardAt: number | undefined;
  resourceVersion: string | undefined;
  /** Completed full lists (the first sync included). */
  lists: number;
  /** List pages requested. */
  pages: number;
  /** Lists restarted because their continue token expired. */
  expiredContinues: number;
  /** Watch requests sent. */
  watches: number;
  bookmarks: number;
  /** 410 Gone answers that forced a relist. */
  gones: number;
  /** Streams restarted by the watchdog. */
  watchdogRestarts: number;
  /** Failures retried after a backoff. */
  retries: number;
  /** The most recent failure, kept after recovery; `watching` and `lastHeardAt` say how things are now. */
  lastError: string | undefined;
}

/** Settings of a {@link Reflector}. */
export interface ReflectorOptions<T extends KubeObject> extends ReflectorTuning {
  /** Applied to every object before it is frozen and cached, e.g. {@link dropManagedFields}. */
  transform?: (object: T) => T;
  /** The replica's one way to the API server. */
  transport: KubeTransport;
  path: string;
  labelSelector?: string;
  fieldSelector?: string;
  signal: AbortSignal;
  log: Logger;
}

/**
 * Keeps a sink equal to one collection of the API server: paginated list, then watch from the listed
 * resourceVersion with bookmarks; 410 Gone relists, other failures back off and re-watch from the last
 * resourceVersion. {@link run} only returns once the abort signal fired.
 */
export class Reflector<T extends KubeObject> {
  readonly stats: ReflectorStats = {
    synced: false,
    watching: false,
    lastHeardAt: undefined,
    resourceVersion: undefined,
    lists: 0,
    pages: 0,
    expiredContinues: 0,
    watches: 0,
    bookmarks: 0,
    gones: 0,
    watchdogRestarts: 0,
    retries: 0,
    lastError: undefined,
  };
  private readonly backoff: Backoff;
  /** Freezes what the server sends, sharing empty objects and repeated strings across the cache. */
  private readonly freezer = new SharingFreezer();
  private gonesInARow = 0;

  constructor(
    private readonly options: ReflectorOptions<T>,
    private readonly sink: ReflectorSink<T>,
  ) {
    this.backoff = new Backoff(options.backoff);
    const { min, max } = this.watchTimeout();
    if (!(min > 0 && max >= min)) throw new Error(`watchTimeoutSeconds needs 0 < min <= max, got ${min}..${max}`);
    if (!((options.pageSize ?? DEFAULT_PAGE_SIZE) > 0)) throw new Error(`pageSize must be positive, got ${options.pageSize}`);
  }

  /** Lists and watches until the abort signal fires. Never throws. */
  async run(): Promise<void> {
    const { signal, log } = this.options;
    let needList = true;
    while (!signal.aborted) {
      try {
        if (needList) {
          await this.listAll();
          needList = false;
          this.backoff.reset();
        }
        await this.watchOnce();
      } catch (error) {
        this.stats.watching = false;
        if (signal.aborted) break;
        this.stats.lastError = error instanceof Error ? error.message : String(error);
        if (error instanceof GoneError) {
          needList = true;
          this.stats.gones++;
          log.info({ err: this.stats.lastError }, 'resourceVersion expired; listing again');
          // A relist answered by another 410 at once would loop hot: the second in a row waits.
          if (++this.gonesInARow < 2) continue;
        }
        if (error instanceof SilenceError) this.stats.watchdogRestarts++;
        await this.pause(error);
      }
    }
    this.stats.watching = false;
  }

  private async pause(error: unknown): Promise<void> {
    this.stats.retries++;
    const asked = error instanceof KubeApiError ? (error.retryAfterMs ?? 0) : 0;
    const delayMs = Math.max(this.backoff.next(), Math.min(asked, this.options.backoff?.maxMs ?? 30_000));
    this.options.log.warn({ err: this.stats.lastError, delayMs }, 'list/watch failed; retrying after a backoff');
    await sleepUnlessAborted(delayMs, this.options.signal);
  }

  private async listAll(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const { items, resourceVersion } = await this.listPages();
        this.freezer.forget(); // the cache holds the strings now; the pool would only keep dropped ones alive later
        this.sink.replace(items);
        this.stats.resourceVersion = resourceVersion;
        this.stats.lists++;
        this.stats.synced = true;
        this.options.log.debug({ objects: items.length, resourceVersion }, 'listed');
        return;
      } catch (error) {
        // An expired continue token (etcd compacted while we paged) only means: start the list over.
        if (!(error instanceof ExpiredContinueError) || attempt >= 5) throw error instanceof ExpiredContinueError ? error.gone : error;
        this.stats.expiredContinues++;
        this.options.log.info({ attempt }, 'list continue token expired; restarting the list');
      }
    }
  }

  private async listPages(): Promise<{ items: T[]; resourceVersion: string }> {
    const items: T[] = [];
    const keep = (item: unknown): void => void items.push(this.prepare(item as T));
    let continueToken: string | undefined;
    let resourceVersion: string | undefined;
    do {
      const page = await this.listPage(continueToken, keep);
      resourceVersion = page.resourceVersion;
      continueToken = page.continue || undefined;
    } while (continueToken);
    if (!resourceVersion) throw new Error(`list of ${this.options.path} came back without a resourceVersion`);
    return { items, resourceVersion };
  }

  private async listPage(continueToken: string | undefined, onItem: (item: unknown) => void): Promise<ListPageMetadata> {
    const { transport, path, signal } = this.options;
    const timeoutMs = this.options.requestTimeoutMs ?? 60_000;
    const query: Query = { ...this.selectors(), limit: this.options.pageSize ?? DEFAULT_PAGE_SIZE, continue: continueToken };
    this.stats.pages++;
    // A controller per request, released when it ends: AbortSignal.any/timeout would keep every page's
    // signal (and what listens to it) alive until the informer's own signal fires or the timeout passes.
    const controller = new AbortController();
    const abort = (): void => controller.abort(signal.reason);
    const timer = setTimeout(() => controller.abort(new Error(`list page of ${path} timed out after ${timeoutMs} ms`)), timeoutMs);
    signal.addEventListener('abort', abort, { once: true });
    try {
      const page = await streamListPage(transport, path, query, controller.signal, onItem);
      this.stats.lastHeardAt = Date.now();
      return page;
    } catch (error) {
      if (error instanceof GoneError && continueToken) throw new ExpiredContinueError(error);
      throw controller.signal.aborted && controller.signal.reason instanceof Error ? controller.signal.reason : error;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', abort);
    }
  }

  private async watchOnce(): Promise<void> {
    const { transport, path, signal, silenceMs } = this.options;
    const timeoutSeconds = this.jitteredWatchTimeout();
    const query: Query = { ...this.selectors(), watch: true, allowWatchBookmarks: true, resourceVersion: this.stats.resourceVersion, timeoutSeconds };
    this.stats.watches++;
    const startedAt = Date.now();
    const events = await streamWatch(
      (streamSignal, sink) => transport.streamBody(path, query, streamSignal, sink),
      (event) => this.handle(event),
      {
        signal,
        silenceMs: silenceMs ?? 150_000,
        onResponse: () => {
          this.stats.watching = true;
          this.stats.lastHeardAt = Date.now();
        },
        onData: () => (this.stats.lastHeardAt = Date.now()),
        // What the transform would drop is not parsed at all.
        withoutManagedFields: this.options.transform === dropManagedFields,
      },
    );
    this.stats.watching = false;
    // A server that answers and hangs up at once must not make us loop without pause.
    if (events === 0 && Date.now() - startedAt < 1000) throw new Error(`watch of ${path} was closed by the server at once`);
  }

  /** Transforms and freezes an object from the server, once, before anyone sees it. */
  private prepare(object: T): T {
    return this.freezer.freeze(this.options.transform ? this.options.transform(object) : object) as T;
  }

  private handle(event: WatchEvent): void {
    const object = event.type === 'ADDED' || event.type === 'MODIFIED' || event.type === 'DELETED' ? this.prepare(event.object as T) : (event.object as T);
    switch (event.type) {
      case 'ADDED':
      case 'MODIFIED':
        this.sink.upsert(object);
        break;
      case 'DELETED':
        this.sink.remove(object);
        break;
      case 'BOOKMARK':
        this.stats.bookmarks++;
        break;
      case 'ERROR':
        throw errorFromStatus(500, event.object as KubeStatus);
      default:
        throw new Error(`watch of ${this.options.path} sent an unknown event type "${event.type}"`);
    }
    this.stats.resourceVersion = object.metadata?.resourceVersion ?? this.stats.resourceVersion;
    this.gonesInARow = 0;
    this.backoff.reset();
  }

  private selectors(): Query {
    return { labelSelector: this.options.labelSelector || undefined, fieldSelector: this.options.fieldSelector || undefined };
  }

  private watchTimeout(): { min: number; max: number } {
    return this.options.watchTimeoutSeconds ?? { min: 300, max: 600 };
  }

  private jitteredWatchTimeout(): number {
    const { min, max } = this.watchTimeout();
    return Math.floor(min + Math.random() * (max - min + 1));
  }
}

/**
 * A transform that drops `metadata.managedFields`, often the largest part of an object and never read from a
 * cache. The metadata is copied without it rather than `delete`d from: deleting a property turns an object
 * into a dictionary-mode object, which is larger than the fields it saved once empty leaves are shared.
 */
export function dropManagedFields<T extends KubeObject>(object: T): T {
  const metadata = object.metadata;
  if (!metadata || !('managedFields' in metadata)) return object;
  const kept: NonNullable<KubeObject['metadata']> = {};
  for (const key in metadata) if (key !== 'managedFields') kept[key] = metadata[key];
  object.metadata = kept;
  return object;
}

/** Internal marker: a 410 on a continued list page. */
class ExpiredContinueError extends AppsetError {
  constructor(readonly gone: GoneError) {
    super(gone.message);
  }
}
