import { TemplateProblem } from './template-problem.js';
import { fn, type FunctionTable } from './template-function.js';
import { fromUtf8, utf8 } from './go-strings.js';
import { isPlainMap, markCreated, stringValue } from './plain-values.js';

/**
 * sprig's `urlParse` and `urlJoin`, ported from Go's net/url (Parse, URL.String and their escaping rules,
 * as in Go 1.25, which Argo CD v3.2.6 is built with). Strings are handled as UTF-8 bytes, as Go does.
 */

type Mode = 'path' | 'segment' | 'host' | 'zone' | 'user' | 'query' | 'fragment';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
/** The bytes each mode leaves unescaped (net/url's encoding table). */
const KEEP: Record<Mode, string> = {
  path: `${ALNUM}$&+,/:;=@`,
  segment: `${ALNUM}$&+:=@`,
  host: `${ALNUM}!"$&'()*+,:;<=>[]`,
  zone: `${ALNUM}!"$&'()*+,:;<=>[]`,
  user: `${ALNUM}$&+,;=`,
  query: ALNUM,
  fragment: `${ALNUM}!$&()*+,/:;=?@`,
};

const shouldEscape = (byte: number, mode: Mode) => byte >= 0x80 || !KEEP[mode].includes(String.fromCharCode(byte));

/** url's escape: bytes outside the mode's set as %XX (space as + in query components). */
function escape(text: string, mode: Mode): string {
  let out = '';
  for (const byte of utf8(text)) {
    if (byte === 0x20 && mode === 'query') out += '+';
    else if (shouldEscape(byte, mode)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    else out += String.fromCharCode(byte);
  }
  return out;
}

const isHex = (b: number | undefined) => b !== undefined && /^[0-9a-fA-F]$/.test(String.fromCharCode(b));

/** url's unescape over bytes: validates every %XX (and, in hosts, that only non-ASCII is escaped). */
function unescape(text: string, mode: Mode): string {
  const input = utf8(text);
  const out: number[] = [];
  const bad = (at: number) => new TemplateProblem(`invalid URL escape ${JSON.stringify(fromUtf8(input.subarray(at, at + 3)))}`);
  for (let i = 0; i < input.length; i++) {
    const byte = input[i] ?? 0;
    if (byte === 0x25) {
      if (!isHex(input[i + 1]) || !isHex(input[i + 2])) throw bad(i);
      const value = parseInt(String.fromCharCode(input[i + 1] ?? 0, input[i + 2] ?? 0), 16);
      const percent25 = value === 0x25;
      if (mode === 'host' && value < 0x80 && !percent25) throw bad(i);
      if (mode === 'zone' && !percent25 && value !== 0x20 && shouldEscape(value, 'host')) throw bad(i);
      out.push(value);
      i += 2;
    } else {
      if ((mode === 'host' || mode === 'zone') && byte < 0x80 && shouldEscape(byte, mode))
        throw new TemplateProblem(`invalid character ${JSON.stringify(String.fromCharCode(byte))} in host name`);
      out.push(byte === 0x2b && mode === 'query' ? 0x20 : byte);
    }
  }
  return fromUtf8(Uint8Array.from(out));
}

const validPort = (port: string) => port === '' || /^:[0-9]*$/.test(port);

/** url's parseHost (Go 1.25): a bracketed IP literal with optional zone, or host[:port]. */
function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']');
    if (close < 0) throw new TemplateProblem("missing ']' in host");
    if (!validPort(host.slice(close + 1))) throw new TemplateProblem(`invalid port ${JSON.stringify(host.slice(close + 1))} after host`);
    const zone = host.slice(0, close).indexOf('%25');
    if (zone >= 0) return unescape(host.slice(0, zone), 'host') + unescape(host.slice(zone, close), 'zone') + unescape(host.slice(close), 'host');
  } else if (host.includes(':') && !validPort(host.slice(host.lastIndexOf(':')))) {
    throw new TemplateProblem(`invalid port ${JSON.stringify(host.slice(host.lastIndexOf(':')))} after host`);
  }
  return unescape(host, 'host');
}

interface ParsedUrl {
  scheme: string;
  opaque: string;
  user?: { name: string; password?: string };
  host: string;
  path: string;
  query: string;
  fragment: string;
}

function parseAuthority(authority: string): Pick<ParsedUrl, 'user' | 'host'> {
  const at = authority.lastIndexOf('@');
  const host = parseHost(authority.slice(at + 1));
  if (at < 0) return { host };
  const info = authority.slice(0, at);
  if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(info)) throw new TemplateProblem('net/url: invalid userinfo');
  const colon = info.indexOf(':');
  if (colon < 0) return { host, user: { name: unescape(info, 'user') } };
  return { host, user: { name: unescape(info.slice(0, colon), 'user'), password: unescape(info.slice(colon + 1), 'user') } };
}

/** url.Parse. */
export function parseUrl(raw: string): ParsedUrl {
  const hash = raw.indexOf('#');
  const [head, frag] = hash < 0 ? [raw, ''] : [raw.slice(0, hash), raw.slice(hash + 1)];
  if ([...head].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) throw new TemplateProblem('net/url: invalid control character in URL');
  const url: ParsedUrl = { scheme: '', opaque: '', host: '', path: '', query: '', fragment: frag === '' ? '' : unescape(frag, 'fragment') };
  if (head === '*') return { ...url, path: '*' };
  const scheme = /^([A-Za-z][A-Za-z0-9+\-.]*):/.exec(head);
  if (head.startsWith(':')) throw new TemplateProblem('missing protocol scheme');
  url.scheme = (scheme?.[1] ?? '').toLowerCase();
  let rest = scheme ? head.slice(scheme[0].length) : head;
  const q = rest.indexOf('?');
  if (q >= 0 && !(q === rest.length - 1)) [rest, url.query] = [rest.slice(0, q), rest.slice(q + 1)];
  else if (q >= 0) rest = rest.slice(0, q);
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') return { ...url, opaque: rest };
    if ((rest.split('/')[0] ?? '').includes(':')) throw new TemplateProblem('first path segment in URL cannot contain colon');
  }
  if ((url.scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    Object.assign(url, parseAuthority(slash < 0 ? rest.slice(2) : rest.slice(2, slash)));
    rest = slash < 0 ? '' : rest.slice(slash);
  }
  url.path = unescape(rest, 'path');
  return url;
}

/** URL.String for a URL without raw (escaped) forms, as urlJoin builds it. */
export function formatUrl(url: ParsedUrl): string {
  let out = url.scheme ? `${url.scheme}:` : '';
  if (url.opaque) out += url.opaque;
  else {
    if (url.scheme || url.host || url.user) {
      if (url.host || url.path || url.user) out += '//';
      if (url.user) out += `${escape(url.user.name, 'user')}${url.user.password !== undefined ? `:${escape(url.user.password, 'user')}` : ''}@`;
      if (url.host) out += escape(url.host, 'host');
    }
    const path = url.path === '*' ? '*' : escape(url.path, 'path');
    if (path !== '' && !path.startsWith('/') && url.host) out += '/';
    if (out === '' && (path.split('/')[0] ?? '').includes(':')) out += './';
    out += path;
  }
  if (url.query) out += `?${url.query}`;
  if (url.fragment) out += `#${escape(url.fragment, 'fragment')}`;
  return out;
}

/** url's Hostname: the host without port or IPv6 brackets. */
function hostname(host: string): string {
  const colon = host.lastIndexOf(':');
  const name = colon >= 0 && validPort(host.slice(colon)) ? host.slice(0, colon) : host;
  return name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name;
}

/** sprig `urlParse`: scheme, host, hostname, path, query, opaque, fragment and userinfo of a URL. */
function urlParse(value: unknown): Record<string, string> {
  let url: ParsedUrl;
  try {
    url = parseUrl(stringValue(value));
  } catch (error) {
    throw new TemplateProblem(`unable to parse url: parse ${JSON.stringify(stringValue(value))}: ${(error as Error).message}`);
  }
  const userinfo = url.user ? `${escape(url.user.name, 'user')}${url.user.password !== undefined ? `:${escape(url.user.password, 'user')}` : ''}` : '';
  const { scheme, host, path, query, opaque, fragment } = url;
  return markCreated({ scheme, host, hostname: hostname(host), path, query, opaque, fragment, userinfo });
}

/** sprig `urlJoin`: a URL from such a map (every present key must be a string). */
function urlJoin(value: unknown): string {
  if (!isPlainMap(value)) throw new TemplateProblem('urlJoin: expected a map');
  const map = value;
  const get = (key: string): string => {
    const v = map[key];
    if (v === undefined) return '';
    if (typeof v !== 'string') throw new TemplateProblem(`unable to parse ${key} key, must be of type string`);
    return v;
  };
  const info = get('userinfo');
  const user = info === '' ? undefined : parseUrl(`proto://${info}@host`).user;
  return formatUrl({
    scheme: get('scheme'),
    host: get('host'),
    path: get('path'),
    query: get('query'),
    opaque: get('opaque'),
    fragment: get('fragment'),
    ...(user ? { user } : {}),
  });
}

/** The URL functions by name. */
export const URL_FUNCTIONS: FunctionTable = {
  urlParse: fn(urlParse),
  urlJoin: fn(urlJoin),
};
