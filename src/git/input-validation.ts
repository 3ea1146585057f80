import { GitError } from './git-error.js';

const ALLOWED_SCHEMES = new Set(['https:', 'http:', 'ssh:', 'git:', 'file:']);
const SCP_LIKE = /^[A-Za-z0-9._~-]+@[A-Za-z0-9.-]+:[^\s]+$/;
const SAFE_REVISION = /^[A-Za-z0-9._/@^{}~+-]+$/;

/**
 * Refuses a repository URL that could inject options or credentials: a leading `-`, control
 * characters, a transport other than https/http/ssh/git/file, or a password inside the URL (it would
 * end up in process arguments and error messages; credentials come from Secrets instead).
 */
export function validateRepoURL(repoURL: string): void {
  const refuse = (why: string): never => {
    throw new GitError('invalid-input', { repoURL: printable(withoutPassword(repoURL)) }, `refused repository URL: ${why}`);
  };
  if (repoURL === '') refuse('it is empty');
  if (repoURL.startsWith('-')) refuse('it starts with "-" (option injection)');
  if (/\s/.test(repoURL) || hasControlCharacters(repoURL)) refuse('it contains whitespace or control characters');
  if (SCP_LIKE.test(repoURL)) return;
  let url: URL;
  try {
    url = new URL(repoURL);
  } catch {
    return refuse('it is not a URL');
  }
  if (!ALLOWED_SCHEMES.has(url.protocol)) refuse(`transport "${url.protocol}" is not allowed`);
  if (url.password !== '') refuse('it embeds a password; put credentials in a repository Secret');
}

/**
 * Refuses a revision that git could read as an option (`-…`) or that is not a plausible ref name,
 * SHA or `HEAD`.
 */
export function validateRevision(repoURL: string, revision: string): void {
  const refuse = (why: string): never => {
    throw new GitError('invalid-input', { repoURL, revision: printable(revision) }, `refused revision: ${why}`);
  };
  if (revision.startsWith('-')) refuse('it starts with "-" (option injection)');
  if (!SAFE_REVISION.test(revision)) refuse('it contains characters a ref name cannot have');
  if (revision.split('/').includes('..') || revision.includes('..')) refuse('it contains ".."');
}

/**
 * Refuses a repository-relative path or glob that could leave the repository or be read as an
 * option: absolute, containing a `..` segment, starting with `-`, or holding control characters.
 */
export function validateRepoPath(repoURL: string, revision: string, path: string): void {
  const refuse = (why: string): never => {
    throw new GitError('invalid-input', { repoURL, revision, path: printable(path) }, `refused path: ${why}`);
  };
  if (path === '') refuse('it is empty');
  if (path.startsWith('-')) refuse('it starts with "-" (option injection)');
  if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path)) refuse('it is absolute; paths are relative to the repository root');
  if (path.split(/[\\/]/).includes('..')) refuse('it contains a ".." segment');
  if (hasControlCharacters(path)) refuse('it contains control characters');
}

/** A value safe to echo in an error message: control characters escaped, length capped. */
function printable(value: string): string {
  const escaped = JSON.stringify(value).slice(1, -1);
  return escaped.length > 200 ? `${escaped.slice(0, 200)}…` : escaped;
}

/** True when `value` holds an ASCII control character (NUL, newline, escape, DEL, …). */
export function hasControlCharacters(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** The URL with any password replaced by `***`, so a refused URL can be named without leaking it. */
export function withoutPassword(repoURL: string): string {
  return repoURL.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:]*):[^/@]*@/i, '$1:***@');
}
