import { GeneratorSpecError } from './spec-reading.js';

/**
 * Compiles a filter pattern written for Go's regexp (RE2), as Argo CD's filters are, into a JavaScript
 * RegExp with the same meaning for the patterns filters use: a leading flag group such as `(?i)` becomes
 * the flag, `(?P<name>` becomes `(?<name>`, `\z` becomes `$`. Like Go's MatchString it matches anywhere
 * unless anchored. A pattern that does not compile is a spec error naming `field`.
 */
export function compileGoRegexp(pattern: string, field: string): RegExp {
  let source = pattern;
  let flags = 'u';
  const leading = /^\(\?([imsU]+)\)/.exec(source);
  if (leading?.[1]) {
    if (leading[1].includes('U')) throw new GeneratorSpecError(field, 'the (?U) flag of Go regular expressions is not supported');
    flags += leading[1];
    source = source.slice(leading[0].length);
  }
  source = source.replaceAll('(?P<', '(?<').replace(/\\z$/, '$');
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw new GeneratorSpecError(field, `is not a valid regular expression: ${(error as Error).message}`);
  }
}
