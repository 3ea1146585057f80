import { shortRevision, type PushEvent } from './push.js';
import type { GitTarget } from './git-targets.js';
import { repoIdentity } from './git-url.js';

/** The repository identities a push names, for an index lookup. */
export function pushedIdentities(push: PushEvent): string[] {
  return [...new Set(push.repoURLs.map(repoIdentity).filter((id): id is string => id !== undefined))];
}

/**
 * True if a push changed what `target` reads: the same repository, and the target's revision is a
 * pushed branch or tag, or HEAD (empty) and the default branch was pushed (or the payload cannot tell).
 */
export function pushAffects(push: PushEvent, target: GitTarget): boolean {
  const identity = repoIdentity(target.repoURL);
  if (!identity || !pushedIdentities(push).includes(identity)) return false;
  const wanted = shortRevision(target.revision.trim());
  if (wanted === '' || wanted === 'HEAD') return push.touchesDefaultBranch !== false;
  return push.revisions.includes(wanted);
}
