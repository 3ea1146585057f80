import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { createInformer, dropManagedFields, type Informer, type KubeObject } from '../kube/informer/index.js';
import { KNOWN_HOSTS_CONFIGMAP } from '../git/ssh-transport.js';
import { OWNER_UID_INDEX } from './reconciler.js';

/** Label that marks Argo CD's cluster, repository and repo-creds Secrets. */
export const SECRET_TYPE_LABEL = 'argocd.argoproj.io/secret-type';

/** The caches a controller replica reconciles from. */
export interface ControllerInformers {
  readonly applicationSets: Informer<KubeObject>;
  readonly applications: Informer<KubeObject>;
  /** Argo CD cluster, repository and repo-creds Secrets of the controller's namespace. */
  readonly secrets: Informer<KubeObject>;
  /** Argo CD's SSH known hosts ConfigMap of the controller's namespace (zero or one object). */
  readonly knownHosts: Informer<KubeObject>;
  readonly all: ReadonlyArray<Informer<KubeObject>>;
}

/** Where to watch: only the controller's namespace, or every namespace when tenants' namespaces are watched too. */
export interface InformerScope {
  readonly namespace: string;
  readonly clusterWide: boolean;
  readonly resyncMs: number;
}

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
  const applicationSets = createInformer<KubeObject>({ ...common, path: within('applicationsets'), resyncMs: scope.resyncMs });
  const applications = createInformer<KubeObject>({ ...common, path: within('applications'), indexers: { [OWNER_UID_INDEX]: ownerUids } });
  const secrets = createInformer<KubeObject>({
    ...common,
    path: `/api/v1/namespaces/${scope.namespace}/secrets`,
    labelSelector: `${SECRET_TYPE_LABEL} in (cluster,repository,repo-creds)`,
  });
  const knownHosts = createInformer<KubeObject>({ ...common, path: `/api/v1/namespaces/${scope.namespace}/configmaps`, fieldSelector: `metadata.name=${KNOWN_HOSTS_CONFIGMAP}` });
  return { applicationSets, applications, secrets, knownHosts, all: [applicationSets, applications, secrets, knownHosts] };
}
