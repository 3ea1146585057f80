import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { createInformer, dropManagedFields, type Informer, type KubeObject } from '../kube/informer/index.js';
import { KNOWN_HOSTS_CONFIGMAP } from '../git/ssh-transport.js';
import { OWNER_UID_INDEX } from './reconciler.js';
import { SECRET_TYPE_LABEL } from '../git/credentials.js';
import { gitTargets } from '../server/webhook/git-targets.js';
import { repoIdentity } from '../server/webhook/repo-identity.js';

export { SECRET_TYPE_LABEL };

/** The caches a controller replica reconciles from. */
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

/** Where to watch: only the controller's namespace, or every namespace when tenants' namespaces are watched too. */
export interface InformerScope {
  readonly namespace: string;
  readonly clusterWide: boolean;
  readonly resyncMs: number;
  /** Name of the webhook Secret in the controller's namespace. */
  readonly webhookSecretName?: string;
}

/** Index of the ApplicationSets store: repository identity (host/path) of every git generator → ApplicationSets. */
export const GIT_REPO_INDEX = 'gitRepo';

const APPS = '/apis/argoproj.io/v1alpha1';

/** Controller owner UIDs of an Application that point at an ApplicationSet. */
function ownerUids(app: KubeObject): string[] {
  const refs = (app.metadata?.ownerReferences ?? []) as Array<{ kind?: string; uid?: string; controller?: boolean }>;
  return refs.filter((ref) => ref.controller === true && ref.kind === 'ApplicationSet' && ref.uid).map((ref) => ref.uid as string);
}

/** Starts the informers; they stop when `signal` aborts. */
export function startControllerInformers(kc: KubeConfig, scope: InformerScope, signal: AbortSignal, log: Logger): ControllerInformers {
  const within = (resource: string): string => (scope.clusterWide ? `${APPS}/${resource}` : `${APPS}/namespaces/${scope.namespace}/${resource}`);
  const common = { kc, signal, log, transform: dropManagedFields };
  const gitRepos = (appset: KubeObject): string[] => [...new Set(gitTargets((appset as { spec?: unknown }).spec).map((t) => repoIdentity(t.repoURL)).filter((id): id is string => id !== undefined))];
  const applicationSets = createInformer<KubeObject>({ ...common, path: within('applicationsets'), resyncMs: scope.resyncMs, indexers: { [GIT_REPO_INDEX]: gitRepos } });
  const applications = createInformer<KubeObject>({ ...common, path: within('applications'), indexers: { [OWNER_UID_INDEX]: ownerUids } });
  const secrets = createInformer<KubeObject>({
    ...common,
    path: `/api/v1/namespaces/${scope.namespace}/secrets`,
    labelSelector: `${SECRET_TYPE_LABEL} in (cluster,repository,repo-creds)`,
  });
  const projects = createInformer<KubeObject>({ ...common, path: `${APPS}/namespaces/${scope.namespace}/appprojects` });
  const webhookSecret = scope.webhookSecretName
    ? createInformer<KubeObject>({ ...common, path: `/api/v1/namespaces/${scope.namespace}/secrets`, fieldSelector: `metadata.name=${scope.webhookSecretName}` })
    : undefined;
  const knownHosts = createInformer<KubeObject>({ ...common, path: `/api/v1/namespaces/${scope.namespace}/configmaps`, fieldSelector: `metadata.name=${KNOWN_HOSTS_CONFIGMAP}` });
  const all = [applicationSets, applications, secrets, projects, knownHosts, ...(webhookSecret ? [webhookSecret] : [])];
  return { applicationSets, applications, secrets, projects, webhookSecret, knownHosts, all };
}
