/**
 * The identity of a Git repository across the URL forms providers and users write: `host/path`,
 * lower-cased, without scheme, user, port, trailing slash or `.git`. `https://GitHub.com/Org/Repo`,
 * `git@github.com:org/repo.git` and `ssh://git@github.com:22/org/repo` share one identity. Undefined
 * for text that is not a repository URL.
 */
export function repoIdentity(url: string): string | undefined {
  const text = url.trim();
  const scp = /^[^@/\s]+@([^:/\s]+):(?!\/)(.+)$/.exec(text);
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
