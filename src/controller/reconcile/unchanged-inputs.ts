import { createHash } from 'node:crypto';
import type { V1Secret } from '@kubernetes/client-node';
import type { KubeObject, ReadonlyStore } from '../../kube/informer/index.js';
import type { Application } from '../../model/objects.js';
import { WeightedLru } from '../../model/weighted-lru.js';
import type { ApplicationSetObject } from './applicationset.js';
import type { Generated } from './generate.js';

/** What a reconcile after generating reads besides the generators' output; all of it from the informer caches. */
export interface ReconcileInputs {
  readonly appset: ApplicationSetObject;
  readonly generated: Generated;
  /** The Applications the ApplicationSet owns now. */
  readonly owned: readonly Application[];
  /** Applications by name (owned or not: a desired name may already be taken). */
  readonly applications: ReadonlyStore<KubeObject>;
  /** The cluster Secrets the reconcile validates destinations against (the tenant's when it is a tenant's). */
  readonly clusterSecrets: readonly V1Secret[];
  /** Versions of the other caches it reads (e.g. the AppProjects informer's resourceVersion). */
  readonly cacheVersions: string;
}

/** The last successful reconcile of one ApplicationSet: its inputs' fingerprint and the Application names it wanted. */
interface Remembered {
  readonly fingerprint: string;
  readonly desiredNames: readonly string[];
}

/**
 * Per ApplicationSet, the fingerprint of the inputs of its last reconcile that succeeded. A reconcile whose
 * inputs have the same fingerprint would render the same Applications, find them as they were left and
 * write nothing, so it can stop after generating. Every input is in the fingerprint: the ApplicationSet's
 * resourceVersion (spec, annotations, status), the generated parameters, the resourceVersion of every owned
 * Application and of every Application at a name it wanted, the cluster Secrets and the other caches' versions.
 */
export class UnchangedInputsMemo {
  /** Reconciles that stopped after generating, and those that ran in full. */
  readonly stats = { unchanged: 0, changed: 0 };
  private readonly last: WeightedLru<Remembered>;

  constructor(maxApplicationSets = 100_000) {
    this.last = new WeightedLru({ maxWeight: Number.POSITIVE_INFINITY, maxEntries: maxApplicationSets });
  }

  /** True when the last successful reconcile of this ApplicationSet had exactly these inputs. */
  unchanged(inputs: ReconcileInputs): boolean {
    const kept = this.last.get(keyOf(inputs.appset));
    const same = kept !== undefined && kept.fingerprint === fingerprint(inputs, kept.desiredNames);
    if (same) this.stats.unchanged++;
    else this.stats.changed++;
    return same;
  }

  /** The fingerprint to {@link remember} once a reconcile with these inputs, wanting `desiredNames`, succeeds. */
  fingerprintOf(inputs: ReconcileInputs, desiredNames: readonly string[]): Remembered {
    const names = [...desiredNames].sort();
    return { fingerprint: fingerprint(inputs, names), desiredNames: names };
  }

  /** Records a reconcile that succeeded. */
  remember(appset: ApplicationSetObject, remembered: Remembered): void {
    this.last.set(keyOf(appset), remembered, 1);
  }

  /** Forgets an ApplicationSet (a failed reconcile: the next one must run in full). */
  forget(appset: ApplicationSetObject): void {
    this.last.delete(keyOf(appset));
  }
}

function keyOf(appset: ApplicationSetObject): string {
  return `${appset.metadata.namespace}/${appset.metadata.name}/${appset.metadata.uid ?? ''}`;
}

function fingerprint(inputs: ReconcileInputs, desiredNames: readonly string[]): string {
  const { appset, generated, owned, applications, clusterSecrets, cacheVersions } = inputs;
  const namespace = appset.metadata.namespace ?? '';
  const version = (o: { metadata?: { name?: string; resourceVersion?: string; uid?: string } } | undefined): string =>
    o ? `${o.metadata?.name}@${o.metadata?.uid}@${o.metadata?.resourceVersion}` : '-';
  const hash = createHash('sha256');
  hash.update(JSON.stringify([appset.metadata.uid, appset.metadata.resourceVersion, cacheVersions, generated.requeueAfterMs ?? null]));
  hash.update(JSON.stringify(generated.outputs));
  hash.update(owned.map(version).sort().join('\n'));
  hash.update('\0');
  hash.update(desiredNames.map((name) => version(applications.getByName(namespace, name) as unknown as Application | undefined)).join('\n'));
  hash.update('\0');
  hash.update(clusterSecrets.map(version).sort().join('\n'));
  return hash.digest('hex');
}
