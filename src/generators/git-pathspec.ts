/**
 * A matcher with the semantics of `git ls-files -- <pattern>`, which Argo CD's git files generator uses
 * by default: a pattern without wildcards names a file or every file below a folder; a pattern with
 * wildcards is matched against the whole path with `*` and `?` also crossing `/` (git's pathspecs
 * without the `:(glob)` magic), `[...]` a character class (`!` or `^` negates), `\` escaping.
 */
export function gitPathspecMatcher(pattern: string): (path: string) => boolean {
  const spec = pattern.replace(/^\.\//, '');
  if (!/[*?[\\]/.test(spec)) {
    const folder = spec.replace(/\/+$/, '');
    return (path) => path === folder || path.startsWith(`${folder}/`) || folder === '';
  }
  const regexp = new RegExp(`^${translate(spec)}$`, 's');
  return (path) => regexp.test(path);
}

function translate(spec: string): string {
  let out = '';
  for (let i = 0; i < spec.length; i++) {
    const c = spec[i] as string;
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '\\' && i + 1 < spec.length) out += escape(spec[++i] as string);
    else if (c === '[') {
      const end = spec.indexOf(']', i + 2);
      if (end < 0) {
        out += '\\[';
        continue;
      }
      let body = spec.slice(i + 1, end);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      out += `[${negated ? '^' : ''}${body.replace(/[\\\]^]/g, (m) => `\\${m}`)}]`;
      i = end;
    } else out += escape(c);
  }
  return out;
}

function escape(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
