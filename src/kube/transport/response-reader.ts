/** An answer that does not follow HTTP/1.1: the connection cannot be trusted any more. */
export class MalformedResponseError extends Error {
  override readonly name = 'MalformedResponseError';
}

/** Where a streamed 2xx body goes as it arrives, instead of being kept (a watch). */
export interface BodySink {
  /** A 2xx head arrived (its body may follow in the same read). */
  onResponse?(): void;
  /** The next bytes of the body, de-chunked; valid only during the call (the caller's read buffer is reused). */
  onBody(bytes: Buffer): void;
}

/** Longest head (status line and headers) accepted; the API server's are well under 1 KiB. */
const MAX_HEAD_BYTES = 64 * 1024;
const HEAD_END = Buffer.from('\r\n\r\n');

/** Hex digits of a chunk size accepted: 12 are 2^48 bytes, and keep the sum exact in a double. */
const MAX_CHUNK_SIZE_DIGITS = 12;

/** The value of a hex digit's character code, or -1. */
function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** The status code of a head's status line (`HTTP/1.1 200 OK`). */
function statusCode(head: string): number {
  const code = Number(head.slice(9, 12));
  const separator = head.charCodeAt(12);
  if (
    !head.startsWith('HTTP/1.') ||
    head.charCodeAt(8) !== 0x20 ||
    !(code >= 100 && code <= 999) ||
    !(Number.isNaN(separator) || separator === 0x20 || separator === 0x0d)
  )
    throw new MalformedResponseError(`not an HTTP/1.1 status line: ${JSON.stringify(head.slice(0, 40))}`);
  return code;
}

/** The trimmed value of the first `name` header of a lower-cased head, if any. */
function headerValue(lower: string, name: string): string | undefined {
  const at = lower.indexOf(`\r\n${name}:`);
  if (at < 0) return undefined;
  const start = at + name.length + 3;
  const end = lower.indexOf('\r\n', start);
  return lower.slice(start, end < 0 ? undefined : end).trim();
}

/** How the body's end is known. */
type Framing = 'length' | 'chunked' | 'close';

/**
 * Reads one HTTP/1.1 response from the bytes of a connection, fed in as they arrive: the status, the
 * few headers a client of the API server needs, and the body (kept only when asked for), de-chunked.
 * Interim 1xx answers are skipped. What it does not need it does not decode: an unread body is only counted.
 */
export class ResponseReader {
  /** The final status code, once the head has arrived (0 before). */
  status = 0;
  /** Seconds of a `Retry-After` header, as sent. */
  retryAfter: string | undefined;
  /** False when the server said `Connection: close` or the body runs to the end of the connection. */
  keepAlive = true;
  private head: Buffer | undefined;
  private framing: Framing = 'length';
  /** Bytes of the body (or of the current chunk) still to come. */
  private remaining = 0;
  /** Within a chunked body: waiting for a size line, for the CRLF after a chunk's data, or for the trailers. */
  private chunkState: 'size' | 'data-end' | 'trailers' = 'size';
  private pending: Buffer | undefined;
  private readonly parts: Buffer[] = [];
  private done = false;

  /**
   * `keepBody`: collect the body for {@link body}; otherwise (and only for a 2xx answer) its bytes are only counted,
   * or handed to `sink` as they come. An error answer's body is always kept, never streamed.
   */
  constructor(
    private keepBody: boolean,
    private readonly sink?: BodySink,
  ) {}

  /**
   * Feeds the next bytes; true once the response is complete. Bytes past its end are a protocol error.
   * `chunk` is not kept: the caller may reuse its memory once this returns (the connections read into one buffer).
   */
  push(chunk: Buffer): boolean {
    if (this.done) throw new MalformedResponseError('bytes arrived after the end of the response');
    let data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    if (this.status === 0) {
      const rest = this.readHead(data);
      if (rest === undefined) return false;
      data = rest;
    }
    this.done = this.readBody(data);
    return this.done;
  }

  /** The connection ended: completes a body that runs to the end of the connection, else an error. */
  end(): void {
    if (this.done) return;
    if (this.status !== 0 && this.framing === 'close') {
      this.done = true;
      return;
    }
    throw new MalformedResponseError('the connection ended before the response was complete');
  }

  /** True once the whole response has been read. */
  get complete(): boolean {
    return this.done;
  }

  /** The body as text (empty unless it was kept). */
  body(): string {
    return this.parts.length === 1 ? this.parts[0]!.toString('utf8') : Buffer.concat(this.parts).toString('utf8');
  }

  /** Parses the head when it is all there; returns the bytes after it, or undefined while it is incomplete. */
  private readHead(data: Buffer): Buffer | undefined {
    for (;;) {
      const end = data.indexOf(HEAD_END);
      if (end < 0) {
        if (data.length > MAX_HEAD_BYTES) throw new MalformedResponseError(`a response head longer than ${MAX_HEAD_BYTES} bytes`);
        this.pending = Buffer.from(data);
        return undefined;
      }
      const head = data.toString('latin1', 0, end);
      const rest = data.subarray(end + HEAD_END.length);
      const code = statusCode(head);
      if (code >= 100 && code < 200) {
        data = rest; // an interim answer (100 Continue): the real one follows
        continue;
      }
      this.status = code;
      if (code >= 300) this.keepBody = true; // an error's Status is always read
      this.readHeaders(head, head.startsWith('HTTP/1.0'));
      if (code < 300) this.sink?.onResponse?.();
      return rest;
    }
  }

  // One lower-cased copy of the head and a look-up per header: splitting it into lines and fields per
  // answer cost more than the rest of reading an answer.
  private readHeaders(head: string, http10: boolean): void {
    const lower = head.toLowerCase();
    const lengthValue = headerValue(lower, 'content-length');
    let length: number | undefined;
    if (lengthValue !== undefined) {
      if (!/^\d+$/.test(lengthValue) || lower.indexOf('\r\ncontent-length:', lower.indexOf('\r\ncontent-length:') + 1) >= 0)
        throw new MalformedResponseError(`a bad or repeated Content-Length: ${JSON.stringify(lengthValue)}`);
      length = Number(lengthValue);
    }
    const chunked = headerValue(lower, 'transfer-encoding')?.split(',').at(-1)?.trim() === 'chunked';
    const connection = headerValue(lower, 'connection') ?? '';
    const close = connection.split(',').some((token) => token.trim() === 'close') || (http10 && !connection.includes('keep-alive'));
    this.retryAfter = headerValue(lower, 'retry-after');
    // No body for these whatever the headers say (RFC 9112 section 6.3).
    const bodiless = this.status === 204 || this.status === 304;
    if (bodiless) this.framing = 'length';
    else if (chunked) this.framing = 'chunked';
    else if (length !== undefined) this.framing = 'length';
    else this.framing = 'close';
    this.remaining = bodiless ? 0 : (length ?? 0);
    this.keepAlive = !close && this.framing !== 'close';
  }

  /** Consumes body bytes; true when the body ended. */
  private readBody(data: Buffer): boolean {
    if (this.framing === 'close') {
      this.take(data);
      return false;
    }
    if (this.framing === 'length') {
      if (data.length > this.remaining) throw new MalformedResponseError('more bytes than the Content-Length');
      this.take(data);
      this.remaining -= data.length;
      return this.remaining === 0;
    }
    return this.readChunks(data);
  }

  private readChunks(data: Buffer): boolean {
    let at = 0;
    while (at < data.length) {
      if (this.chunkState === 'size' || this.chunkState === 'trailers') {
        const next = this.readChunkLine(data, at);
        if (next === 'incomplete') return false;
        if (next === 'end') return true;
        at = next;
      } else if (this.remaining > 0) {
        // Inside a chunk's data.
        const take = Math.min(this.remaining, data.length - at);
        this.take(data.subarray(at, at + take));
        this.remaining -= take;
        at += take;
      } else {
        // The CRLF that closes a chunk's data.
        if (data.length - at < 2) {
          this.pending = Buffer.from(data.subarray(at));
          return false;
        }
        if (data[at] !== 0x0d || data[at + 1] !== 0x0a) throw new MalformedResponseError('a chunk did not end with CRLF');
        at += 2;
        this.chunkState = 'size';
      }
    }
    return false;
  }

  /** Reads a chunk size line or a trailer line at `at`: where the next part starts, or that the body ended or needs more bytes. */
  private readChunkLine(data: Buffer, at: number): number | 'incomplete' | 'end' {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) {
      this.pending = Buffer.from(data.subarray(at));
      if (this.pending.length > MAX_HEAD_BYTES) throw new MalformedResponseError('a chunk size line without an end');
      return 'incomplete';
    }
    if (this.chunkState === 'trailers') {
      if (lineEnd !== at) return lineEnd + 2; // a trailer field: not needed
      if (lineEnd + 2 !== data.length) throw new MalformedResponseError('bytes arrived after the end of the response');
      return 'end';
    }
    // The size's hex digits read in place (a watch has a chunk per event; a string and a regular expression for
    // each cost more than the rest of its framing). Extensions after the digits are ignored, as allowed.
    let size = 0;
    let end = at;
    for (; end < lineEnd && end - at < MAX_CHUNK_SIZE_DIGITS; end++) {
      const digit = hexValue(data[end] as number);
      if (digit < 0) break;
      size = size * 16 + digit;
    }
    const after = end < lineEnd ? (data[end] as number) : -1;
    // After the digits: the line's end, or an extension (`;`), perhaps after blanks.
    if (end === at || !(after === -1 || after === 0x3b || after === 0x20 || after === 0x09))
      throw new MalformedResponseError(`a bad chunk size line: ${JSON.stringify(data.toString('latin1', at, Math.min(lineEnd, at + 40)))}`);
    this.remaining = size;
    this.chunkState = size === 0 ? 'trailers' : 'data-end';
    return lineEnd + 2;
  }

  /**
   * Hands body bytes to the sink of a 2xx answer, or keeps a copy when the body is kept (the caller's chunk may be
   * overwritten after {@link push}).
   */
  private take(bytes: Buffer): void {
    if (bytes.length === 0) return;
    if (this.keepBody) this.parts.push(Buffer.from(bytes));
    else this.sink?.onBody(bytes);
  }
}
