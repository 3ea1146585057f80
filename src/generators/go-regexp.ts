import { GeneratorSpecError } from './spec-reading.js';

/**
 * Compiles a filter pattern written for Go's regexp (RE2), as Argo CD's filters are, into a JavaScript
 * RegExp with the same meaning for the patterns filters use: a leading flag group such as `(?i)` becomes
 * the flag, `(?P<name>` becomes `(?<name>`, `\z` becomes `$`. Like Go's MatchString it matches anywhere
 * unless anchored. A pattern that does not compile is a spec error naming `field`.
 */
export function compileGoRegexp(pattern: string, field: string): RegExp {
  let source = pattern;
  // No `u` flag: with it JavaScript refuses escapes Go accepts (`\-`, `\_`), which filters use.
  let flags = '';
  const leading = /^\(\?([imsU]+)\)/.exec(source);
  if (leading?.[1]) {
    if (leading[1].includes('U')) throw new GeneratorSpecError(field, 'the (?U) flag of Go regular expressions is not supported');
    flags += leading[1];
    source = source.slice(leading[0].length);
  }
  // `\z` (end of text) only when its backslash is not itself escaped: an even run of backslashes before it.
  source = source
    .replaceAll('(?P<', '(?<')
    .replace(/(^|[^\\])((?:\\\\)*)\\z$/, '$1$2$')
    .replace(/\[:(\^?)(alpha|digit|alnum|upper|lower|space|word|xdigit|punct):\]/g, (_whole, negated: string, name: string) =>
      posixClass(name, negated === '^', field),
    );
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw new GeneratorSpecError(field, `is not a valid regular expression: ${(error as Error).message}`);
  }
}

/** Go's ASCII character classes (`[[:alpha:]]`), as the ranges they stand for inside a bracket expression. */
function posixClass(name: string, negated: boolean, field: string): string {
  const ranges: Record<string, string> = {
    alpha: 'A-Za-z',
    digit: '0-9',
    alnum: '0-9A-Za-z',
    upper: 'A-Z',
    lower: 'a-z',
    space: '\\t\\n\\v\\f\\r ',
    word: '0-9A-Za-z_',
    xdigit: '0-9A-Fa-f',
    punct: '!-\\/:-@\\[-`{-~',
  };
  if (negated) throw new GeneratorSpecError(field, `negated character classes ([[:^${name}:]]) are not supported`);
  return ranges[name] ?? '';
}
