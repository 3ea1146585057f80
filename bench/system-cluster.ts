// The ceiling of the system benchmark: a plain client writing the same Applications the controller
// would, with no controller involved.
import { setTimeout as sleep } from 'node:timers/promises';
import { liveFieldRulesOf, identityOf, type ApplicationSetObject } from '../src/controller/reconcile/applicationset.js';
import { applyIntent } from '../src/controller/plan/apply-intent.js';
import { desiredApplication } from '../src/controller/reconcile/desired-application.js';
import type { Application } from '../src/model/objects.js';
import { createApplicationWriter } from '../src/controller/write/application-writer.js';
import type { GeneratedApplication } from '../src/model/applicationset-types.js';
import { pool } from '../test/system/cluster-setup.js';
import { appSetOf } from '../test/system/workload.js';
import { createKubeTransport } from '../src/kube/transport/transport.js';
import type { KubeConfig } from '../src/kube/kubeconfig.js';

/**
 * The exact objects the controller would apply for `expected` in the namespace of `appsets`: the
 * rendered Application, owned by its ApplicationSet, stamped with the intent hash.
 */
export function ceilingObjects(expected: ReadonlyMap<string, GeneratedApplication>, appsets: readonly ApplicationSetObject[]): Application[] {
  const byName = new Map(appsets.map((a) => [a.metadata.name, a]));
  return [...expected.values()].map((rendered) => {
    const appset = byName.get(appSetOf(rendered.metadata.name));
    if (!appset) throw new Error(`no ApplicationSet for ${rendered.metadata.name}`);
    return applyIntent(desiredApplication(rendered, identityOf(appset)), undefined, liveFieldRulesOf(appset));
  });
}

/**
 * The ceiling: server-side applies `objects` with the controller's own writer, `concurrency` in flight.
 * A failed write is retried (up to 10 attempts), as the controller retries a failed reconcile: an
 * overloaded API server drops TLS handshakes, and the ceiling must not win by giving up.
 */
export async function applyAll(kc: KubeConfig, objects: readonly Application[], concurrency: number): Promise<void> {
  const writer = createApplicationWriter(createKubeTransport(kc), { dryRun: false });
  const applyWithRetry = async (app: Application): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      try {
        await writer.apply(app);
        return;
      } catch (error) {
        if (attempt >= 10) throw error;
        await sleep(Math.min(1000, 5 * 2 ** attempt));
      }
    }
  };
  await pool(
    objects.map((app) => () => applyWithRetry(app)),
    concurrency,
  );
}
