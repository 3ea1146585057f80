import type { OnReadOpts, Socket } from 'node:net';
import { AppsetError } from '../../model/errors.js';
import { Fifo } from '../../runtime/fifo.js';
import { ResponseReader } from './response-reader.js';

/** The request went out on a reused connection that turned out to be closed before any answer came. */
export class StaleConnectionError extends AppsetError {
  constructor(override readonly cause: unknown) {
    super('a reused keep-alive connection was closed by the server');
  }
}

/** The server closed the connection while a request was on it, without an error of the socket's own. */
export class ConnectionLostError extends AppsetError {
  constructor() {
    super('the API server closed the connection during a request');
  }
}

/** What an exchange resolves with: the status, Retry-After, and the body when it was kept. */
export interface Answer {
  readonly status: number;
  readonly retryAfter: string | undefined;
  /** The body as text; empty for a 2xx answer whose body was not asked for. */
  readonly body: string;
}

/** One request in flight or waiting for a connection; {@link cancel} ends it with the given error. */
export interface Exchange {
  readonly answer: Promise<Answer>;
  cancel(error: Error): void;
}

/** Bytes read from any one connection at a time; an answer's head and the body of an apply fit in one. */
const READ_BUFFER_BYTES = 64 * 1024;

/** Settings of {@link Http1Connections}. */
export interface Http1ConnectionsOptions {
  /**
   * Opens a new connection (TLS or plain) to the server, passing `onread` on as `net.connect`'s and
   * `tls.connect`'s option of that name: the connection's bytes go to it, not to 'data' events.
   */
  readonly connect: (onread: OnReadOpts) => Socket;
  /** Connections open at once; requests beyond wait for one. */
  readonly maxConnections: number;
  /** An idle connection is closed after this long. */
  readonly idleTimeoutMs: number;
}

interface Job {
  readonly text: string;
  readonly keepBody: boolean;
  resolve(answer: Answer): void;
  reject(error: unknown): void;
  connection: Connection | undefined;
  settled: boolean;
}

interface Connection {
  readonly socket: Socket;
  job: Job | undefined;
  reader: ResponseReader | undefined;
  /** Requests this connection has answered: a failure on a used one before any answer means it was stale. */
  answered: number;
  /** Bytes of the current answer have arrived. */
  heard: boolean;
  closed: boolean;
}

/**
 * Keep-alive HTTP/1.1 connections for the transport's JSON requests, one request per connection at a time,
 * each request written as one string (head and body together). Node's `http.request` costs a replica
 * more CPU than the TLS and the system calls beneath it (a `ClientRequest`, an agent look-up, header
 * objects, an `IncomingMessage` stream and its parser per request); this does only what a request to
 * the API server needs. Watches have connections of their own (`StreamConnections`); list pages stay on
 * `node:http` streams (they are gzipped, and rare).
 */
export class Http1Connections {
  private readonly idle: Connection[] = [];
  private readonly waiting = new Fifo<Job>();
  private open = 0;
  private retired = false;
  /**
   * Where every connection's bytes land (net's `onread`), one buffer for all: the callback runs as each read
   * completes and the reader copies what it keeps, so the next read may overwrite it. A 'data' event costs a
   * Buffer, a readable stream's bookkeeping and a `process.nextTick` per read: without them a request costs the
   * client 0.96 of its CPU (bench:request-connections, session 38).
   */
  private readonly readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);

  constructor(private readonly options: Http1ConnectionsOptions) {}

  /** Sends `text` (a whole request) and reads the answer; the body is kept only when `keepBody`. */
  exchange(text: string, keepBody: boolean): Exchange {
    let job!: Job;
    const answer = new Promise<Answer>((resolve, reject) => {
      job = { text, keepBody, resolve, reject, connection: undefined, settled: false };
    });
    const connection = this.idle.pop();
    if (connection) this.start(connection, job);
    else if (this.open < this.options.maxConnections) this.start(this.connect(), job);
    else this.waiting.push(job);
    return { answer, cancel: (error) => this.cancel(job, error) };
  }

  /** Closes the idle connections and each busy one once its request is answered (new TLS material came). */
  retire(): void {
    this.retired = true;
    for (const connection of this.idle.splice(0)) connection.socket.destroy();
  }

  /** Connections open now, idle or busy (for tests and metrics). */
  get openConnections(): number {
    return this.open;
  }

  /** The most connections this opens at once. */
  get maxConnections(): number {
    return this.options.maxConnections;
  }

  private connect(): Connection {
    // The callback runs only once bytes arrive, after `connection` below is set.
    const socket = this.options.connect({
      buffer: this.readBuffer,
      callback: (size, buffer) => {
        this.onData(connection, (buffer as Buffer).subarray(0, size));
        return true;
      },
    });
    this.open++;
    const connection: Connection = { socket, job: undefined, reader: undefined, answered: 0, heard: false, closed: false };
    socket.setNoDelay(true);
    socket.on('end', () => this.onEnd(connection));
    socket.on('error', (error) => this.lose(connection, error));
    socket.on('close', () => this.lose(connection, undefined));
    socket.on('timeout', () => socket.destroy()); // only armed while idle
    return connection;
  }

  private start(connection: Connection, job: Job): void {
    connection.job = job;
    connection.reader = new ResponseReader(job.keepBody);
    connection.heard = false;
    job.connection = connection;
    connection.socket.setTimeout(0);
    connection.socket.write(job.text);
  }

  private onData(connection: Connection, chunk: Buffer): void {
    const { job, reader } = connection;
    if (!job || !reader) {
      connection.socket.destroy(); // nothing was asked: a server speaking out of turn cannot be trusted
      return;
    }
    connection.heard = true;
    let complete: boolean;
    try {
      complete = reader.push(chunk);
    } catch (error) {
      this.fail(connection, error);
      return;
    }
    if (!complete) return;
    this.finish(connection, job, reader);
  }

  /** The server ended the connection: that completes an answer whose body runs to the end, else the close handles it. */
  private onEnd(connection: Connection): void {
    const { job, reader } = connection;
    if (!job || !reader?.status) {
      connection.socket.destroy();
      return;
    }
    try {
      reader.end();
    } catch (error) {
      this.fail(connection, error);
      return;
    }
    this.finish(connection, job, reader);
  }

  private finish(connection: Connection, job: Job, reader: ResponseReader): void {
    connection.job = undefined;
    connection.reader = undefined;
    connection.answered++;
    this.settle(job, undefined, { status: reader.status, retryAfter: reader.retryAfter, body: reader.body() });
    if (!reader.keepAlive || this.retired || connection.closed) {
      connection.socket.destroy();
      return;
    }
    const next = this.waiting.shift();
    if (next) {
      this.start(connection, next);
      return;
    }
    connection.socket.setTimeout(this.options.idleTimeoutMs);
    this.idle.push(connection);
  }

  /** A protocol error on a connection: its request fails, and the connection is closed. */
  private fail(connection: Connection, error: unknown): void {
    const job = connection.job;
    connection.job = undefined;
    if (job) this.settle(job, error);
    connection.socket.destroy();
  }

  /** The connection failed or closed: its request (if any) fails, and a waiting request gets a new connection. */
  private lose(connection: Connection, error: Error | undefined): void {
    const job = connection.job;
    connection.job = undefined;
    if (job) {
      const stale = connection.answered > 0 && !connection.heard;
      // A socket's own error (refused, reset, a certificate not trusted) goes to the caller as it is.
      this.settle(job, stale ? new StaleConnectionError(error ?? new ConnectionLostError()) : (error ?? new ConnectionLostError()));
    }
    if (connection.closed) return;
    connection.closed = true;
    connection.socket.destroy();
    this.open--;
    const at = this.idle.indexOf(connection);
    if (at >= 0) this.idle.splice(at, 1);
    const next = this.waiting.shift();
    if (next) this.start(this.connect(), next);
  }

  private cancel(job: Job, error: Error): void {
    if (job.settled) return;
    this.waiting.remove(job);
    this.settle(job, error);
    // A request on the wire cannot be taken back: its connection is closed, so no late answer is misread.
    if (job.connection?.job === job) {
      job.connection.job = undefined;
      job.connection.socket.destroy();
    }
  }

  private settle(job: Job, error: unknown, answer?: Answer): void {
    if (job.settled) return;
    job.settled = true;
    if (answer) job.resolve(answer);
    else job.reject(error);
  }
}
