const INVALID_DNS_NAME_CHARACTERS = /[^-a-z0-9.]/gu;
const MAX_DNS_NAME_LENGTH = 253;

/**
 * Argo CD's `SanitizeName` (used for `nameNormalized`, `path.basenameNormalized` and
 * `path.filenameNormalized`): lower case, every character other than `a-z 0-9 - .` becomes `-`,
 * at most 253 characters, leading and trailing `-` and `.` removed.
 */
export function sanitizeName(name: string): string {
  const replaced = name.toLowerCase().replace(INVALID_DNS_NAME_CHARACTERS, '-').slice(0, MAX_DNS_NAME_LENGTH);
  return replaced.replace(/^[-.]+|[-.]+$/g, '');
}
