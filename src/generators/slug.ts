const NOT_SLUG = /[^a-z0-9_-]/g;

/** Latin letters that Unicode does not decompose, as unidecode (which gosimple uses) spells them. */
const TRANSLITERATION: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  þ: 'th',
  Þ: 'TH',
  ı: 'i',
};

/**
 * Argo CD's `branch_slug` (gosimple/slug as its pull request generator configures it: `_` becomes `-`,
 * at most 50 characters): trimmed, quotes dropped, `&` → `and`, `@` → `at`, accents dropped and the
 * Latin letters without a decomposition transliterated (ß → ss), lower case, every other
 * character `-`, runs of `-` collapsed, `-`/`_` trimmed from the ends, then cut at the last `-` at or
 * before the limit (or at the limit when there is none). Non-Latin scripts, which gosimple transliterates,
 * become `-` here.
 */
export function branchSlug(text: string, maxLength = 50): string {
  const latin = text
    .trim()
    .replace(/['"’]/g, '')
    .replaceAll('_', '-')
    .replaceAll('&', 'and')
    .replaceAll('@', 'at')
    .replace(/[ßæÆœŒøØłŁđĐðÐþÞı]/g, (letter) => TRANSLITERATION[letter] ?? letter)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '');
  const slug = latin
    .toLowerCase()
    .replace(NOT_SLUG, '-')
    .replace(/-+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  if (slug.length <= maxLength) return slug;
  const cut = slug.lastIndexOf('-', maxLength);
  return cut >= 0 ? slug.slice(0, cut) : slug.slice(0, maxLength);
}
