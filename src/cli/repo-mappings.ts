/** `--repo REPO_URL=LOCAL_PATH` flags as a map, or the first malformed one's problem. */
export function parseRepoMappings(values: unknown): Map<string, string> | string {
  const repos = new Map<string, string>();
  for (const mapping of (values ?? []) as string[]) {
    const at = mapping.lastIndexOf('=');
    if (at <= 0 || at === mapping.length - 1) return `--repo must be REPO_URL=LOCAL_PATH, not "${mapping}"`;
    repos.set(mapping.slice(0, at), mapping.slice(at + 1));
  }
  return repos;
}
