import type { Informer, KubeObject } from '../../kube/informer/index.js';
import { gitTargets } from '../../model/git-targets.js';
import { repoIdentity } from '../../model/git-url.js';
import { generatorsOfKind } from '../../model/generator-walk.js';
import { pullRequestEventKey } from '../../generators/pull-request/generator.js';
import { PULL_REQUEST_PROVIDERS } from '../../generators/pull-request/providers/index.js';
import { scmProviderEventKey } from '../../generators/scm-provider/generator.js';
import { REPOSITORY_PROVIDERS } from '../../generators/scm-provider/providers/index.js';
import { controllingApplicationSet, type Application } from '../../model/objects.js';

/** The caches a controller replica reconciles from (started by src/app/caches.ts). */
export interface ControllerInformers {
  readonly applicationSets: Informer<KubeObject>;
  readonly applications: Informer<KubeObject>;
  /** Argo CD cluster, repository, repo-creds and scm-creds Secrets of the controller's namespace. */
  readonly secrets: Informer<KubeObject>;
  /** AppProjects of the controller's namespace. */
  readonly projects: Informer<KubeObject>;
  /** The webhook Secret, when one is configured. */
  readonly webhookSecret: Informer<KubeObject> | undefined;
  /** Argo CD's SSH known hosts ConfigMap of the controller's namespace (zero or one object). */
  readonly knownHosts: Informer<KubeObject>;
  readonly all: ReadonlyArray<Informer<KubeObject>>;
}

/** Index of the ApplicationSets store: repository identity (host/path) of every git generator → ApplicationSets. */
export const GIT_REPO_INDEX = 'gitRepo';

/** Index of the ApplicationSets store: webhook routing key of every pull request and SCM provider generator → ApplicationSets. */
export const SCM_EVENT_INDEX = 'scmEvent';

/** Index of the Applications store: controller owner UID → Applications. */
export const OWNER_UID_INDEX = 'ownerUid';

/** The repository identities an ApplicationSet's git generators read (for {@link GIT_REPO_INDEX}). */
export function gitReposOf(appset: KubeObject): string[] {
  const identities = gitTargets((appset as { spec?: unknown }).spec).map((target) => repoIdentity(target.repoURL));
  return [...new Set(identities.filter((id): id is string => id !== undefined))];
}

/**
 * The routing keys of an ApplicationSet's pull request generators (`pr:<provider>:<owner>/<repo>`) and SCM
 * provider generators (`scm:<provider>:<organization>`), nested ones included (for {@link SCM_EVENT_INDEX}).
 */
export function scmEventKeysOf(appset: KubeObject): string[] {
  const spec = (appset as { spec?: unknown }).spec;
  const keys = [
    ...generatorsOfKind(spec, 'pullRequest').map((raw) => pullRequestEventKey(raw, PULL_REQUEST_PROVIDERS)),
    ...generatorsOfKind(spec, 'scmProvider').map((raw) => scmProviderEventKey(raw, REPOSITORY_PROVIDERS)),
  ];
  return [...new Set(keys.filter((key): key is string => key !== undefined))];
}

/** Controller owner UIDs of an Application that point at an ApplicationSet (for {@link OWNER_UID_INDEX}). */
export function ownerUidsOf(app: KubeObject): string[] {
  const owner = controllingApplicationSet(app as Pick<Application, 'metadata'>);
  // Kubernetes allows one controller reference per object, so an Application is filed under one UID at most.
  return owner?.uid ? [owner.uid] : [];
}
