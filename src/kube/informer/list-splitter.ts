import { CLOSE_BRACE, CLOSE_BRACKET, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE, escaped } from './json-text.js';

/** Where the splitter is in the body: before the `items` array, inside it, or after it. */
type Phase = 'head' | 'items' | 'tail';

/**
 * Splits the JSON body of a Kubernetes list, fed in chunks as it arrives, into the text of each element of
 * its top-level `items` array, so each object can be parsed while the server is still sending the rest.
 * Everything but the items (kind, apiVersion, metadata with the continue token) comes back from {@link end}.
 * It only finds boundaries (strings, escapes, nesting); each item text is still checked by `JSON.parse`.
 */
export class ListItemSplitter {
  /** Text not yet handed out: the head while in it, else from the current item's start (or the scan point). */
  private text = '';
  /** Next index of `text` to scan. */
  private scan = 0;
  /** Nesting depth at `scan`: 1 inside the list object, 2 inside `items`, 3+ inside an item. */
  private depth = 0;
  private inString = false;
  private phase: Phase = 'head';
  /** The body up to and including the `[` of `items`, kept to rebuild the list without its items. */
  private head = '';
  /** Start of the item being read, in `text`, or -1 between items. */
  private itemStart = -1;
  /** The last string seen directly in the list object: the key of the value that follows it. */
  private lastKeyStart = -1;
  private lastKeyEnd = -1;
  /** Items handed out so far. */
  count = 0;

  constructor(private readonly onItem: (text: string) => void) {}

  /** Scans one more piece of the body; calls `onItem` for every item it completes. */
  push(chunk: string): void {
    let text = this.text + chunk;
    let i = this.scan;
    let depth = this.depth;
    let length = text.length;
    while (i < length) {
      if (this.inString) {
        const quote = text.indexOf('"', i);
        if (quote < 0) {
          i = length;
          break;
        }
        i = quote + 1;
        if (escaped(text, quote)) continue;
        this.inString = false;
        if (depth === 1 && this.phase === 'head') this.lastKeyEnd = quote;
        continue;
      }
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        if (depth === 2 && this.phase === 'items') throw new SyntaxError('a list item is not an object');
        this.inString = true;
        if (depth === 1 && this.phase === 'head') this.lastKeyStart = i + 1;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (depth === 0 && c !== OPEN_BRACE) throw new SyntaxError('the body is not a JSON object');
        if (depth === 1 && this.phase === 'head' && c === OPEN_BRACKET && text.slice(this.lastKeyStart, this.lastKeyEnd) === 'items') {
          this.phase = 'items';
          this.head = text.slice(0, i + 1);
          text = text.slice(i + 1);
          length = text.length;
          depth = 2;
          i = 0;
          continue;
        }
        if (depth === 2 && this.phase === 'items') {
          if (c !== OPEN_BRACE) throw new SyntaxError('a list item is not an object');
          this.itemStart = i;
        }
        depth++;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (--depth < 0) throw new SyntaxError('the body is not a JSON object');
        if (this.phase === 'items' && depth === 2) {
          this.onItem(text.slice(this.itemStart, i + 1));
          this.count++;
          this.itemStart = -1;
        } else if (this.phase === 'items' && depth === 1) {
          this.phase = 'tail';
          text = text.slice(i);
          length = text.length;
          i = 0;
        }
      } else if (depth === 2 && this.phase === 'items' && c !== COMMA && !whitespace(c)) {
        throw new SyntaxError('a list item is not an object');
      } else if (depth === 0 && !whitespace(c)) {
        throw new SyntaxError('the body is not a JSON object');
      }
      i++;
    }
    if (this.phase === 'items') {
      // Between items nothing before the scan point is needed again; inside one, nothing before its start.
      const keep = this.itemStart >= 0 ? this.itemStart : i;
      if (keep > 0) {
        text = text.slice(keep);
        i -= keep;
        if (this.itemStart >= 0) this.itemStart = 0;
      }
    }
    this.text = text;
    this.scan = i;
    this.depth = depth;
  }

  /** The list without its items (`items: []`), once the whole body was pushed; throws when it is incomplete. */
  end(): Record<string, unknown> {
    if (this.inString || this.depth !== 0) throw new SyntaxError('the body ended in the middle of the list');
    // A list with no `items` key at all is the whole head.
    const envelope: unknown = JSON.parse(this.phase === 'head' ? this.text : this.head + this.text);
    if (!envelope || typeof envelope !== 'object' || Array.isArray(envelope)) throw new SyntaxError('the body is not a JSON object');
    return envelope as Record<string, unknown>;
  }
}

/** Whether the quote at `index` is escaped: preceded by an odd run of backslashes. */
function whitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
