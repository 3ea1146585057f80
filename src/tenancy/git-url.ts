/**
 * The one Git URL normalisation, used wherever a repository URL is compared with another (AppProject
 * sourceRepos, repository and repo-creds Secrets, webhooks). Argo CD's rules: trimmed, lower-cased whole,
 * scp-style `git@host:org/repo` written as `git@host/org/repo`, one trailing `.git` removed, `ssh://`
 * dropped; and, beyond Argo CD, trailing `/` removed first (Git hosts ignore it, and Secrets are often
 * written with one). Unparseable input gives "", which equals nothing.
 */
export function normalizeGitUrl(raw: string): string {
  let url = raw.trim().toLowerCase().replace(/\/+$/, '');
  const sshLike = /^(ssh:\/\/)?([^/:]*?)@[^@]+$/.exec(url);
  if (sshLike && !sshLike[1]) url = `ssh://${url.replace(':', '/')}`;
  if (url.endsWith('.git')) url = url.slice(0, -4);
  try {
    new URL(url); // only checks that it parses: the text itself is compared, as Go's url.String keeps it
  } catch {
    return '';
  }
  return url.startsWith('ssh://') ? url.slice('ssh://'.length) : url;
}

/** True if two repository URLs name the same repository after normalisation (neither may be empty). */
export function sameGitUrl(a: string, b: string): boolean {
  const left = normalizeGitUrl(a);
  return left !== '' && left === normalizeGitUrl(b);
}
