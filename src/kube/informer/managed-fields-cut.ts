// A watch event's `object.metadata.managedFields` is often the largest part of its line, and an informer that
// drops it (dropManagedFields) parsed it only to throw it away: every member of it a new object and every
// key looked up in V8's string table. Cut out of the text, it is never parsed.

import { CLOSE_BRACE, CLOSE_BRACKET, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE, escaped } from './json-text.js';

const MEMBER = '"managedFields":[';

/**
 * `line` (one watch event, `{"type":...,"object":{...}}` as the API server writes it) without the member
 * `object.metadata.managedFields`, or `line` itself whenever that member is not found exactly there: nothing
 * else of the event is ever removed, and text this does not recognise is left for JSON.parse to judge.
 */
export function withoutManagedFields(line: string): string {
  const at = line.indexOf(MEMBER);
  if (at < 1) return line;
  const before = line.charCodeAt(at - 1);
  // In JSON text a quote after `,` or `{` opens a key: inside a string it would be escaped.
  if ((before !== COMMA && before !== OPEN_BRACE) || !inEventObjectMetadata(line, at)) return line;
  const end = closingBracket(line, at + MEMBER.length - 1);
  if (end < 0) return line;
  if (line.charCodeAt(end + 1) === COMMA) return line.slice(0, at) + line.slice(end + 2);
  if (before === COMMA) return line.slice(0, at - 1) + line.slice(end + 1);
  return line.slice(0, at) + line.slice(end + 1);
}

/** True when position `at` of `line` is directly inside `object.metadata` of the event (depth 3, that path). */
function inEventObjectMetadata(line: string, at: number): boolean {
  let depth = 0;
  // Whether the container open at depth 2 is the event's `object`, and the one at depth 3 its `metadata`.
  let inObject = false;
  let inMetadata = false;
  for (let i = 0; i < at; i++) {
    const c = line.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(line, i);
      if (i < 0) return false;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      if (depth === 2) inObject = c === OPEN_BRACE && line.startsWith('"object":', i - 9);
      else if (depth === 3) inMetadata = inObject && c === OPEN_BRACE && line.startsWith('"metadata":', i - 11);
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return depth === 3 && inMetadata;
}

/** The index of the `]` that closes the array opened at `open`, or -1. */
function closingBracket(line: string, open: number): number {
  let depth = 0;
  for (let i = open; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(line, i);
      if (i < 0) return -1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return c === CLOSE_BRACKET ? i : -1;
    }
  }
  return -1;
}

/** The index of the quote that ends the string opened at `open` (skipping escaped quotes), or -1. */
function stringEnd(line: string, open: number): number {
  for (let at = line.indexOf('"', open + 1); at >= 0; at = line.indexOf('"', at + 1)) if (!escaped(line, at)) return at;
  return -1;
}
