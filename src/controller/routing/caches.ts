import type { Informer, KubeObject } from '../../kube/informer/index.js';
import { gitTargets } from '../../model/git-targets.js';
import { repoIdentity } from '../../model/git-url.js';
import { controllingApplicationSet, type Application } from '../../model/objects.js';

/** The caches a controller replica reconciles from (started by src/app/caches.ts). */
export interface ControllerInformers {
  readonly applicationSets: Informer<KubeObject>;
  readonly applications: Informer<KubeObject>;
  /** Argo CD cluster, repository and repo-creds Secrets of the controller's namespace. */
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

/** Index of the Applications store: controller owner UID → Applications. */
export const OWNER_UID_INDEX = 'ownerUid';

/** The repository identities an ApplicationSet's git generators read (for {@link GIT_REPO_INDEX}). */
export function gitReposOf(appset: KubeObject): string[] {
  const identities = gitTargets((appset as { spec?: unknown }).spec).map((target) => repoIdentity(target.repoURL));
  return [...new Set(identities.filter((id): id is string => id !== undefined))];
}

/** Controller owner UIDs of an Application that point at an ApplicationSet (for {@link OWNER_UID_INDEX}). */
export function ownerUidsOf(app: KubeObject): string[] {
  const owner = controllingApplicationSet(app as Pick<Application, 'metadata'>);
  // Kubernetes allows one controller reference per object, so an Application is filed under one UID at most.
  return owner?.uid ? [owner.uid] : [];
}
