import { fn, type FunctionTable } from './template-function.js';
import { stringValue } from './plain-values.js';

/**
 * sprig's path functions: Go's package path (`base`, `dir`, `clean`, `ext`, `isAbs`) and path/filepath
 * (`osBase`...), which on Linux, where Argo CD runs, behave the same. Only '/' and '.' matter, so
 * working on UTF-16 text gives Go's byte-wise results.
 */

/** path.Clean: the shortest equivalent path (no `//`, `.` or resolvable `..`; "" is "."). */
export function clean(path: string): string {
  if (path === '') return '.';
  const rooted = path.startsWith('/');
  const out: string[] = [];
  let leadingUps = 0;
  for (const element of path.split('/')) {
    if (element === '' || element === '.') continue;
    if (element === '..') {
      if (out.length > leadingUps) out.pop();
      else if (!rooted) {
        out.push('..');
        leadingUps++;
      }
    } else out.push(element);
  }
  const joined = out.join('/');
  if (rooted) return `/${joined}`;
  return joined === '' ? '.' : joined;
}

/** path.Base: the last element, trailing slashes ignored ("" is ".", only slashes is "/"). */
export function base(path: string): string {
  if (path === '') return '.';
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '') return '/';
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** path.Dir: everything before the last element, cleaned. */
export function dir(path: string): string {
  return clean(path.slice(0, path.lastIndexOf('/') + 1));
}

/** path.Ext: from the last `.` of the last element, or "". */
export function ext(path: string): string {
  for (let i = path.length - 1; i >= 0 && path[i] !== '/'; i--) if (path[i] === '.') return path.slice(i);
  return '';
}

const onPath = (f: (path: string) => unknown) => fn((value) => f(stringValue(value)));

/** The path functions by name. */
export const PATH_FUNCTIONS: FunctionTable = {
  base: onPath(base),
  dir: onPath(dir),
  clean: onPath(clean),
  ext: onPath(ext),
  isAbs: onPath((path) => path.startsWith('/')),
  osBase: onPath(base),
  osDir: onPath(dir),
  osClean: onPath(clean),
  osExt: onPath(ext),
  osIsAbs: onPath((path) => path.startsWith('/')),
};
