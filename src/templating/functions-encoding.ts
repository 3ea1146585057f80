import { createHash } from 'node:crypto';
import { TemplateProblem } from './template-problem.js';
import { goQuote } from './functions-text.js';
import { goSprint } from './functions-data.js';
import { fromUtf8, utf8 } from './go-strings.js';
import { stringValue } from './plain-values.js';

/** sprig's hashes and encodings, and Go's escaping builtins (`html`, `js`, `urlquery`), byte for byte. */

const s = stringValue;

/** A hex digest of the UTF-8 bytes (sprig `sha1sum`, `sha256sum`, `sha512sum`). */
export function digest(algorithm: 'sha1' | 'sha256' | 'sha512', value: unknown): string {
  return createHash(algorithm).update(s(value), 'utf8').digest('hex');
}

/** sprig `adler32sum`: the Adler-32 checksum as a decimal string. */
export function adler32sum(value: unknown): string {
  let a = 1;
  let b = 0;
  for (const byte of utf8(s(value))) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return String(b * 65536 + a);
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** sprig `b32enc`: standard base32 with padding. */
export function b32enc(value: unknown): string {
  const bytes = utf8(s(value));
  let out = '';
  for (let i = 0; i < bytes.length; i += 5) {
    const chunk = bytes.subarray(i, i + 5);
    let bits = 0n;
    for (let j = 0; j < 5; j++) bits = (bits << 8n) | BigInt(chunk[j] ?? 0);
    const chars = Math.ceil((chunk.length * 8) / 5);
    for (let j = 0; j < 8; j++) out += j < chars ? BASE32[Number((bits >> BigInt(35 - 5 * j)) & 31n)] : '=';
  }
  return out;
}

const BASE32_TEXT = /^(?:[A-Z2-7]{8})*(?:[A-Z2-7]{2}={6}|[A-Z2-7]{4}={4}|[A-Z2-7]{5}={3}|[A-Z2-7]{7}=)?$/;

/** sprig `b32dec`: strict standard base32 (Go ignores line breaks); refused when invalid, like `b64dec` here. */
export function b32dec(value: unknown): string {
  const text = s(value).replace(/[\r\n]/g, '');
  if (!BASE32_TEXT.test(text)) throw new TemplateProblem(`b32dec: ${goQuote(s(value))} is not valid base32`);
  const out: number[] = [];
  let bits = 0;
  let count = 0;
  for (const ch of text.replace(/=+$/, '')) {
    bits = ((bits << 5) | BASE32.indexOf(ch)) & 0x1fff;
    count += 5;
    if (count >= 8) {
      count -= 8;
      out.push((bits >> count) & 0xff);
    }
  }
  return fromUtf8(Uint8Array.from(out));
}

/** sprig `b64dec`: strict standard base64 (Go ignores line breaks); refused with an error when invalid (sprig would print the error text). */
export function b64dec(value: unknown): string {
  const text = s(value).replace(/[\r\n]/g, '');
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text))
    throw new TemplateProblem(`b64dec: ${goQuote(s(value))} is not valid base64`);
  return fromUtf8(Buffer.from(text, 'base64'));
}

/** Go's evalArgs for the escaping builtins: one string as it is, anything else through fmt.Sprint. */
function escapeInput(args: unknown[]): string {
  return args.length === 1 && typeof args[0] === 'string' ? args[0] : goSprint(...args);
}

const HTML: Record<string, string> = { '\0': '\uFFFD', '"': '&#34;', "'": '&#39;', '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Go's builtin `html` (template.HTMLEscapeString). */
export function html(...args: unknown[]): string {
  return escapeInput(args).replace(/[\0"'&<>]/g, (c) => HTML[c] ?? c);
}

const JS: Record<string, string> = { '\\': '\\\\', "'": "\\'", '"': '\\"', '<': '\\u003C', '>': '\\u003E', '&': '\\u0026', '=': '\\u003D' };
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** Go's builtin `js` (template.JSEscapeString): quotes, `<>&=` and unprintable characters escaped. */
export function js(...args: unknown[]): string {
  return [...escapeInput(args)]
    .map((ch) => {
      const cp = ch.codePointAt(0) ?? 0;
      if (JS[ch] !== undefined) return JS[ch];
      if (cp < 0x20) return `\\u00${cp.toString(16).toUpperCase().padStart(2, '0')}`;
      if (cp < 0x80 || PRINTABLE.test(ch)) return ch;
      return `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
    })
    .join('');
}

/** Go's builtin `urlquery` (url.QueryEscape): unreserved bytes kept, space as `+`, the rest `%XX`. */
export function urlquery(...args: unknown[]): string {
  let out = '';
  for (const byte of utf8(escapeInput(args))) {
    const ch = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(ch)) out += ch;
    else if (ch === ' ') out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
