import { AppsetError } from '../../model/errors.js';
import type { BodySink } from '../transport/response-reader.js';
import { withoutManagedFields } from './managed-fields-cut.js';

/** One line of a watch stream. */
export interface WatchEvent {
  type: string;
  object: unknown;
}

/** The watchdog gave up on a stream that sent nothing (not even its headers) for too long. */
export class SilenceError extends AppsetError {
  constructor(readonly silenceMs: number) {
    super(`the watch stream was silent for ${silenceMs} ms; restarting it`);
    this.name = 'SilenceError';
  }
}

/** Settings of one {@link streamWatch}. */
export interface StreamOptions {
  /** Ends the stream (the call then rejects with the signal's reason or an abort error). */
  signal: AbortSignal;
  /** Watchdog bound: abort with {@link SilenceError} when no byte arrived for this long. */
  silenceMs: number;
  /** Called once the server accepted the watch (a 2xx head arrived). */
  onResponse?: () => void;
  /** Called whenever body bytes arrive, for the informer's "last heard from the server". */
  onData?: () => void;
  /** Leave `object.metadata.managedFields` out of each event before parsing it (for an informer that drops them). */
  withoutManagedFields?: boolean;
}

/** Opens one watch: sends it and hands the body's bytes to `sink` as they come; resolves once the server ended it. */
export type OpenWatch = (signal: AbortSignal, sink: BodySink) => Promise<void>;

/**
 * Opens one watch through `open` and hands every event line to `onEvent`, in order. Resolves with the
 * number of events once the server ends the stream (its `timeoutSeconds` ran out); rejects on a network
 * error, on an error thrown by `onEvent`, or when the watchdog fires. A frozen server keeps the TCP
 * connection open but sends nothing, which only a watchdog notices.
 */
export async function streamWatch(open: OpenWatch, onEvent: (event: WatchEvent) => void, options: StreamOptions): Promise<number> {
  const controller = new AbortController();
  const forwardAbort = (): void => controller.abort(options.signal.reason);
  options.signal.addEventListener('abort', forwardAbort, { once: true });
  if (options.signal.aborted) forwardAbort();
  // One timer, restarted in place whenever bytes arrive, rather than a new Timeout object for every read.
  const timer = setTimeout(() => controller.abort(new SilenceError(options.silenceMs)), options.silenceMs);
  const cut = options.withoutManagedFields ?? false;
  let count = 0;
  const lines = new LineSplitter((line) => {
    onEvent(parseEvent(line, cut));
    count++;
  });
  try {
    await open(controller.signal, {
      onResponse: () => {
        timer.refresh();
        options.onResponse?.();
      },
      onBody: (bytes) => {
        timer.refresh();
        options.onData?.();
        lines.push(bytes);
      },
    });
    lines.end();
    return count;
  } catch (error) {
    const reason: unknown = controller.signal.reason;
    throw reason instanceof SilenceError ? reason : error;
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', forwardAbort);
  }
}

/** The newline byte; it never occurs inside a multi-byte UTF-8 character, so lines are found in the bytes. */
const NEWLINE = 0x0a;

/**
 * Cuts a watch body into its lines as bytes arrive and hands each non-blank one on, trimmed, as text. A line is
 * decoded once, when it is whole (no character is ever split); only the part of a line that came before the
 * current read is copied, since the read's buffer is reused.
 */
class LineSplitter {
  /** Copies of the current line's bytes from earlier reads. */
  private readonly pending: Buffer[] = [];

  constructor(private readonly onLine: (line: string) => void) {}

  /** Feeds the next bytes; `bytes` is not kept. */
  push(bytes: Buffer): void {
    let start = 0;
    for (let newline = bytes.indexOf(NEWLINE); newline >= 0; newline = bytes.indexOf(NEWLINE, start)) {
      const line = this.pending.length === 0 ? bytes.toString('utf8', start, newline) : this.joined(bytes.subarray(start, newline));
      start = newline + 1;
      this.emit(line);
    }
    if (start < bytes.length) this.pending.push(Buffer.from(bytes.subarray(start)));
  }

  /** The body ended: a last line without a newline counts too. */
  end(): void {
    if (this.pending.length > 0) this.emit(this.joined(Buffer.alloc(0)));
  }

  private joined(last: Buffer): string {
    const line = Buffer.concat([...this.pending, last]).toString('utf8');
    this.pending.length = 0;
    return line;
  }

  private emit(line: string): void {
    const trimmed = line.trim();
    if (trimmed) this.onLine(trimmed);
  }
}

function parseEvent(line: string, cut: boolean): WatchEvent {
  let parsed: unknown;
  try {
    parsed = parseLine(line, cut);
  } catch {
    throw new Error(`watch stream sent a line that is not JSON: ${line.slice(0, 200)}`);
  }
  const event = parsed as Partial<WatchEvent> | null;
  if (!event || typeof event.type !== 'string' || typeof event.object !== 'object' || event.object === null) {
    throw new Error(`watch stream sent something that is not an event: ${line.slice(0, 200)}`);
  }
  return { type: event.type, object: event.object };
}

/** The line parsed, without its managedFields when `cut` (the whole line judges whether it is JSON at all). */
function parseLine(line: string, cut: boolean): unknown {
  if (cut) {
    const shorter = withoutManagedFields(line);
    if (shorter !== line) {
      try {
        return JSON.parse(shorter);
      } catch {
        // Not expected of a cut of valid JSON; the whole line decides below.
      }
    }
  }
  return JSON.parse(line);
}
