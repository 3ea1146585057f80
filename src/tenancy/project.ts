import { globMatch } from './glob.js';
import { normalizeGitUrl } from '../model/git-url.js';
import { matchesNamespacePattern } from './namespace-patterns.js';

/** The parts of an Argo CD AppProject that decide what a tenant may generate. */
export interface AppProjectSpec {
  readonly sourceNamespaces?: readonly string[];
  readonly sourceRepos?: readonly string[];
  readonly destinations?: readonly ProjectDestination[];
}

/** One `spec.destinations` entry: globs, each may be negated with a leading `!`. */
export interface ProjectDestination {
  readonly server?: string;
  readonly name?: string;
  readonly namespace?: string;
}

/** Where a generated Application deploys: server and/or cluster name, and namespace. */
export interface Destination {
  readonly server?: string;
  readonly name?: string;
  readonly namespace?: string;
}

const isDeny = (pattern: string): boolean => pattern.startsWith('!');

/** Argo CD's glob test with negation: a `!pattern` "matches" every value the pattern does not. */
function matchAllowingNegation(pattern: string, value: string, separator?: '/'): boolean {
  try {
    return isDeny(pattern) ? !globMatch(pattern.slice(1), value, separator) : globMatch(pattern, value, separator);
  } catch {
    return false; // an invalid pattern matches nothing, as in Argo CD
  }
}

/**
 * True if the project's `sourceRepos` allow `repoURL`: URLs normalised on both sides, `/` separates
 * glob segments, a `!` entry that matches denies at once, otherwise any match allows (so a list of
 * negated entries alone allows everything they do not match, as in Argo CD).
 */
export function isSourcePermitted(project: AppProjectSpec, repoURL: string): boolean {
  const source = normalizeGitUrl(repoURL);
  let allowed = false;
  for (const entry of project.sourceRepos ?? []) {
    const pattern = isDeny(entry) ? `!${normalizeGitUrl(entry.slice(1))}` : entry === '*' ? '*' : normalizeGitUrl(entry);
    const matched = matchAllowingNegation(pattern, source, '/');
    if (matched) allowed = true;
    else if (isDeny(pattern)) return false;
  }
  return allowed;
}

/**
 * True if the project's `destinations` allow `destination` (Argo CD's rule: server or name, and
 * namespace, must match one entry; an entry whose negated part does not match denies). Resolve a
 * destination given by name to its server (and the reverse) before calling, so entries of either kind apply.
 */
export function isDestinationPermitted(project: AppProjectSpec, destination: Destination): boolean {
  let allowed = false;
  for (const item of project.destinations ?? []) {
    const nameMatched = Boolean(destination.name) && matchAllowingNegation(item.name ?? '', destination.name ?? '');
    const serverMatched = Boolean(destination.server) && matchAllowingNegation(item.server ?? '', destination.server ?? '');
    const namespaceMatched = matchAllowingNegation(item.namespace ?? '', destination.namespace ?? '');
    if ((serverMatched || nameMatched) && namespaceMatched) {
      allowed = true;
      continue;
    }
    const deniedCluster = (!nameMatched && isDeny(item.name ?? '')) || (!serverMatched && isDeny(item.server ?? ''));
    if ((deniedCluster && namespaceMatched) || (!namespaceMatched && isDeny(item.namespace ?? '') && (serverMatched || nameMatched))) return false;
  }
  return allowed;
}

/** True if the project lets ApplicationSets (and their Applications) of `namespace` use it. */
export function isSourceNamespacePermitted(project: AppProjectSpec, namespace: string): boolean {
  return matchesNamespacePattern(project.sourceNamespaces ?? [], namespace);
}

/**
 * True if the project lets Applications deploy to the cluster `cluster` (by server or name) in some
 * namespace: the cluster generator of a tenant sees only such clusters.
 */
export function isClusterPermitted(project: AppProjectSpec, cluster: { readonly server?: string; readonly name?: string }): boolean {
  const items = project.destinations ?? [];
  const matches = (pattern: string | undefined, value: string | undefined): boolean => Boolean(value) && matchAllowingNegation(pattern ?? '', value ?? '');
  const denied = items.some(
    (item) => (isDeny(item.server ?? '') && !matches(item.server, cluster.server)) || (isDeny(item.name ?? '') && !matches(item.name, cluster.name)),
  );
  return !denied && items.some((item) => matches(item.server, cluster.server) || matches(item.name, cluster.name));
}
