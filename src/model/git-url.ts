// Two keys of a repository URL, for two jobs. normalizeGitUrl is Argo CD's strict key (scheme and user
// kept): credentials and AppProject sourceRepos match by it, so http and https never stand for each other.
// repoIdentity is the loose key (host/path only): a webhook names a repository in whatever form its
// provider writes, and every form of the same repository must wake the same ApplicationSets.

/** `git@host:org/repo`: scp-style, no scheme; the path after the colon does not start with `/`. */
const SCP_STYLE = /^[^@/\s]+@([^:/\s]+):(?!\/)(.+)$/;

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

/**
 * The identity of a Git repository across the URL forms providers and users write: `host/path`,
 * lower-cased, without scheme, user, port, trailing slash or `.git`. `https://GitHub.com/Org/Repo`,
 * `git@github.com:org/repo.git` and `ssh://git@github.com:22/org/repo` share one identity. Undefined
 * for text that is not a repository URL.
 */
export function repoIdentity(url: string): string | undefined {
  const text = url.trim();
  const scp = SCP_STYLE.exec(text);
  let host: string;
  let path: string;
  if (scp && !text.includes('://')) {
    [host, path] = [scp[1] ?? '', scp[2] ?? ''];
  } else {
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      return undefined;
    }
    if (!['http:', 'https:', 'ssh:', 'git:'].includes(parsed.protocol)) return undefined;
    [host, path] = [parsed.hostname, decodeURIComponent(parsed.pathname)];
  }
  const cleanPath = path.replace(/^\/+|\/+$/g, '').replace(/\.git$/i, '');
  if (host === '' || cleanPath === '') return undefined;
  return `${host}/${cleanPath}`.toLowerCase();
}
