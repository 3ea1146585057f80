import type { V1Secret } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import {
  GIT_REPO_INDEX,
  gitReposOf,
  OWNER_UID_INDEX,
  ownerUidsOf,
  SCM_EVENT_INDEX,
  scmEventKeysOf,
  type ControllerInformers,
} from '../controller/routing/caches.js';
import { KNOWN_HOSTS_CONFIGMAP } from '../git/ssh-transport.js';
import { createInformer, dropManagedFields, type Informer, type KubeObject } from '../kube/informer/index.js';
import type { KubeTransport } from '../kube/transport/transport.js';
import { SECRET_TYPE_LABEL, type SecretType } from '../model/secrets.js';

/** Where to watch: only the controller's namespace, or every namespace when tenants' namespaces are watched too. */
export interface InformerScope {
  readonly namespace: string;
  readonly clusterWide: boolean;
  /**
   * How often the ApplicationSets cache replays every object as an update (absent: never). Only the
   * single-replica in-memory queue needs it: the shared queue runs one claimed resync per installation.
   */
  readonly resyncMs?: number;
  /** Name of the webhook Secret in the controller's namespace. */
  readonly webhookSecretName?: string;
}

const APPS = '/apis/argoproj.io/v1alpha1';

/** Starts the informers of one replica, with their indexes; they stop when `signal` aborts. */
export function startControllerInformers(transport: KubeTransport, scope: InformerScope, signal: AbortSignal, log: Logger): ControllerInformers {
  const within = (resource: string): string => (scope.clusterWide ? `${APPS}/${resource}` : `${APPS}/namespaces/${scope.namespace}/${resource}`);
  const common = { transport, signal, log, transform: dropManagedFields };
  const applicationSets = createInformer<KubeObject>({
    ...common,
    path: within('applicationsets'),
    ...(scope.resyncMs === undefined ? {} : { resyncMs: scope.resyncMs }),
    indexers: { [GIT_REPO_INDEX]: gitReposOf, [SCM_EVENT_INDEX]: scmEventKeysOf },
  });
  const applications = createInformer<KubeObject>({ ...common, path: within('applications'), indexers: { [OWNER_UID_INDEX]: ownerUidsOf } });
  const secrets = createInformer<KubeObject>({
    ...common,
    path: `/api/v1/namespaces/${scope.namespace}/secrets`,
    labelSelector: `${SECRET_TYPE_LABEL} in (cluster,repository,repo-creds,scm-creds)`,
  });
  const projects = createInformer<KubeObject>({ ...common, path: `${APPS}/namespaces/${scope.namespace}/appprojects` });
  const webhookSecret = scope.webhookSecretName
    ? createInformer<KubeObject>({
        ...common,
        path: `/api/v1/namespaces/${scope.namespace}/secrets`,
        fieldSelector: `metadata.name=${scope.webhookSecretName}`,
      })
    : undefined;
  const knownHosts = createInformer<KubeObject>({
    ...common,
    path: `/api/v1/namespaces/${scope.namespace}/configmaps`,
    fieldSelector: `metadata.name=${KNOWN_HOSTS_CONFIGMAP}`,
  });
  const all = [applicationSets, applications, secrets, projects, knownHosts, ...(webhookSecret ? [webhookSecret] : [])];
  return { applicationSets, applications, secrets, projects, webhookSecret, knownHosts, all };
}

/** The Argo CD Secrets of the given types, from the Secrets cache. */
export function secretsOfType(informers: ControllerInformers, ...types: SecretType[]): V1Secret[] {
  return informers.secrets.store.list().filter((s) => (types as string[]).includes(s.metadata?.labels?.[SECRET_TYPE_LABEL] ?? ''));
}

/** The resourceVersion an informer's cache has reached (its last list, event or bookmark). */
export function versionOf(informer: Informer<KubeObject>): () => string | undefined {
  return () => informer.health().resourceVersion;
}
