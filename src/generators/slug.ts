const NOT_SLUG = /[^a-z0-9_-]/g;

/**
 * Argo CD's `branch_slug` (gosimple/slug as its pull request generator configures it: `_` becomes `-`,
 * at most 50 characters): trimmed, `&` → `and`, `@` → `at`, accents dropped, lower case, every other
 * character `-`, runs of `-` collapsed, `-`/`_` trimmed from the ends, then cut at the last `-` at or
 * before the limit (or at the limit when there is none). Non-Latin letters, which gosimple
 * transliterates, become `-` here.
 */
export function branchSlug(text: string, maxLength = 50): string {
  const latin = text.trim().replaceAll('_', '-').replaceAll('&', 'and').replaceAll('@', 'at').normalize('NFKD').replace(/\p{M}/gu, '');
  const slug = latin
    .toLowerCase()
    .replace(NOT_SLUG, '-')
    .replace(/-+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  if (slug.length <= maxLength) return slug;
  const cut = slug.lastIndexOf('-', maxLength);
  return cut >= 0 ? slug.slice(0, cut) : slug.slice(0, maxLength);
}
