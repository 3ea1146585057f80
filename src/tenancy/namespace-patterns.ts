import { globMatch } from './glob.js';

/**
 * True if `name` matches an entry of `patterns` the way Argo CD matches namespaces (its REGEXP list
 * mode): an entry written `/…/` is a regular expression matched anywhere in the name (unanchored, as
 * in Argo CD: anchor it with ^ and $ to match whole names), any other entry is a glob without
 * separators. Invalid entries match nothing.
 */
export function matchesNamespacePattern(patterns: readonly string[], name: string): boolean {
  return patterns.some((pattern) => {
    if (pattern.length > 2 && pattern.startsWith('/') && pattern.endsWith('/')) {
      try {
        return new RegExp(pattern.slice(1, -1)).test(name);
      } catch {
        return false;
      }
    }
    try {
      return globMatch(pattern, name);
    } catch {
      return false;
    }
  });
}
