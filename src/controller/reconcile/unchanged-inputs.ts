import { createHash } from 'node:crypto';
import type { V1Secret } from '@kubernetes/client-node';
import type { KubeObject, ReadonlyStore } from '../../kube/informer/index.js';
import type { Application } from '../../model/objects.js';
import { WeightedLru } from '../../model/weighted-lru.js';
import type { ApplicationSetObject } from './applicationset.js';
import type { Generated } from './generate.js';
import type { RememberedInputs, SharedFingerprints } from '../consistency/input-fingerprints.js';

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
type Remembered = RememberedInputs;

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

  /**
   * `shared` also receives every entry, so the replica that runs the full resync can leave out the keys
   * any replica reconciled with the same inputs; its failures are passed to `onSharedError` (the entry is
   * then missing there, and the resync reconciles the key: safe, only slower).
   */
  constructor(
    maxApplicationSets = 100_000,
    private readonly shared?: SharedFingerprints,
    private readonly onSharedError: (error: unknown) => void = () => undefined,
  ) {
    this.last = new WeightedLru({ maxWeight: Number.POSITIVE_INFINITY, maxEntries: maxApplicationSets });
  }

  /** True when the last successful reconcile of this ApplicationSet had exactly these inputs. */
  unchanged(inputs: ReconcileInputs): boolean {
    const same = matchesRemembered(inputs, this.last.get(memoKeyOf(inputs.appset)));
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
    const key = memoKeyOf(appset);
    this.last.set(key, remembered, 1);
    this.shared?.write(key, remembered).catch(this.onSharedError);
  }

  /** Forgets an ApplicationSet (a failed reconcile: the next one must run in full). */
  forget(appset: ApplicationSetObject): void {
    const key = memoKeyOf(appset);
    this.last.delete(key);
    this.shared?.remove(key).catch(this.onSharedError);
  }
}

/** True when `remembered` (from any replica) was taken from exactly these inputs. */
export function matchesRemembered(inputs: ReconcileInputs, remembered: Remembered | undefined): boolean {
  return remembered !== undefined && remembered.fingerprint === fingerprint(inputs, remembered.desiredNames);
}

/** The memo's key of an ApplicationSet: its uid too, so a deleted and recreated one starts afresh. */
export function memoKeyOf(appset: { metadata: { namespace?: string; name?: string; uid?: string } }): string {
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
