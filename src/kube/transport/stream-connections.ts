import type { OnReadOpts, Socket } from 'node:net';
import { errorFromStatus, parseStatus, retryAfterMs } from './api-errors.js';
import { ConnectionLostError } from './http1-connections.js';
import { RequestAbortedError } from './request-aborted.js';
import { ResponseReader, type BodySink } from './response-reader.js';

/** Bytes read from any one stream at a time: a burst of watch events arrives in few reads. */
const READ_BUFFER_BYTES = 64 * 1024;

/**
 * Streamed GETs (watches), each on a connection of its own that closes when the stream ends, read through net's
 * `onread` into one buffer for all of them and handed on as the bytes come. `node:http` turned every read into a
 * Buffer, a parser callback, an IncomingMessage push, a string decoder and a step of an async iterator before a
 * line of an event was even looked for; a watch needs none of it.
 */
export class StreamConnections {
  /**
   * Where every stream's bytes land: the callback runs as each read completes, and the reader and the sink copy
   * what they keep, so the next read (of any stream) may overwrite it.
   */
  private readonly readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);

  /** `connect` opens a new connection (TLS or plain) to the server with net's `onread` option. */
  constructor(private readonly connect: (onread: OnReadOpts) => Socket) {}

  /**
   * Sends `request` (a whole GET) on a new connection and hands a 2xx answer's body to `sink` as it arrives.
   * Resolves once the server ended the body; rejects with a KubeApiError for a non-2xx answer (its Status read),
   * with whatever `sink` throws, with the socket's error, when the connection closes early, or when `signal` fires.
   */
  open(request: string, signal: AbortSignal, sink: BodySink): Promise<void> {
    if (signal.aborted) return Promise.reject(new RequestAbortedError(signal.reason));
    return new Promise<void>((resolve, reject) => new OneStream(this.connect, this.readBuffer, request, signal, sink, resolve, reject));
  }
}

/** One streamed GET on its own connection, from the request to the end of the answer. */
class OneStream {
  /**
   * The answer's reader until the stream ends, undefined after. Dropped at once, because it holds the sink and so
   * the informer's cache: the socket, which holds this, lives on until its close completes, and a stopped informer's
   * cache must be collectable before that (test/kube/informer/informer.int.test.ts).
   */
  private reader: ResponseReader | undefined;
  private readonly socket: Socket;
  /** The caller's signal until the stream ends: its reason (an error whose frames hold the caller) is let go too. */
  private signal: AbortSignal | undefined;
  private readonly onAbort = (): void => this.settle(new RequestAbortedError(this.signal?.reason));

  constructor(
    connect: (onread: OnReadOpts) => Socket,
    readBuffer: Buffer,
    request: string,
    signal: AbortSignal,
    sink: BodySink,
    private resolve: (() => void) | undefined,
    private reject: ((error: Error) => void) | undefined,
  ) {
    this.signal = signal;
    this.reader = new ResponseReader(false, sink);
    this.socket = connect({ buffer: readBuffer, callback: (size, buffer) => this.onRead((buffer as Buffer).subarray(0, size)) });
    signal.addEventListener('abort', this.onAbort, { once: true });
    this.socket.setNoDelay(true);
    this.socket.on('end', () => this.onEnd());
    this.socket.on('error', (error) => this.settle(error));
    this.socket.on('close', () => this.reader && this.settle(new ConnectionLostError()));
    this.socket.write(request);
  }

  /** Bytes arrived (valid only during the call); false stops reading once the stream is over. */
  private onRead(bytes: Buffer): boolean {
    const reader = this.reader;
    if (!reader) return false;
    try {
      if (reader.push(bytes)) this.finish(reader);
    } catch (error) {
      this.settle(error);
    }
    return this.reader !== undefined;
  }

  /** The server ended the connection: that completes only a body that runs to the end of it. */
  private onEnd(): void {
    const reader = this.reader;
    if (!reader) return;
    try {
      reader.end();
      this.finish(reader);
    } catch (error) {
      this.settle(error);
    }
  }

  private finish(reader: ResponseReader): void {
    const { status } = reader;
    if (status >= 200 && status < 300) this.settle(undefined);
    else this.settle(errorFromStatus(status, parseStatus(reader.body()), retryAfterMs(reader.retryAfter)));
  }

  /** Ends the stream once: the reader (and its sink) is let go, the connection closes, and the call resolves or rejects. */
  private settle(error: unknown): void {
    if (!this.reader) return;
    const { resolve, reject } = this;
    // Nothing the caller made stays reachable from the closing socket: not the sink, not the signal's reason, not
    // the promise (its error's frames hold the caller until `.stack` is read).
    this.reader = undefined;
    this.signal?.removeEventListener('abort', this.onAbort);
    this.signal = undefined;
    this.resolve = undefined;
    this.reject = undefined;
    this.socket.destroy();
    if (error === undefined) resolve?.();
    else reject?.(error instanceof Error ? error : new Error('the watch stream failed', { cause: error }));
  }
}
