/**
 * Intent stamp benchmark: applyIntent over 10,000 freshly rendered Applications (the create path of a
 * 100 x 100 converge), side by side with the first implementation (test/controller/intent-reference.ts:
 * a full structuredClone per Application and a canonical JSON built from intermediate arrays). Rounds
 * alternate the two; both must give the same objects, which is checked first.
 */
import assert from 'node:assert/strict';
import { applyIntent } from '../src/controller/plan/apply-intent.js';
import { desiredApplication } from '../src/controller/reconcile/desired-application.js';
import type { Application } from '../src/model/objects.js';
import { referenceApplyIntentOnCreate } from '../test/controller/intent-reference.js';
import { sampledAllocationBytes } from './allocation-sampler.js';
import { writeBenchResults } from './results-file.js';
import { median, roundTo } from './statistics.js';

const APPLICATIONS = 10_000;
const ROUNDS = 9;

/** What the workload's templates render to, one per Application, owned by one of 100 ApplicationSets. */
function desiredApplications(): Application[] {
  return Array.from({ length: APPLICATIONS }, (_, i) => {
    const set = `set-${String(Math.floor(i / 100)).padStart(3, '0')}`;
    const app = `app-${String(i % 100).padStart(3, '0')}`;
    return desiredApplication(
      {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Application',
        metadata: { name: `${set}-${app}`, namespace: 'argocd', labels: { 'bench.appset/set': set }, finalizers: ['resources-finalizer.argocd.argoproj.io'] },
        spec: {
          project: 'default',
          source: { repoURL: 'https://git.example/org/workload.git', targetRevision: 'v1', path: `apps/${app}` },
          destination: { server: 'https://kubernetes.default.svc', namespace: app },
          syncPolicy: { automated: { prune: true, selfHeal: true }, syncOptions: ['CreateNamespace=true'] },
        },
      },
      { name: set, namespace: 'argocd', uid: `uid-${set}` },
    );
  });
}

/** The current stamp on the create path. */
const stampOnCreate = (app: Application): Application => applyIntent(app, undefined, {});

function timeMs(apps: readonly Application[], stamp: (app: Application) => Application): number {
  const start = performance.now();
  for (const app of apps) stamp(app);
  return performance.now() - start;
}

/** Bytes one stamp allocates, garbage included (sampled over every Application, three times). */
async function bytesPerStamp(apps: readonly Application[], stamp: (app: Application) => Application): Promise<number> {
  const bytes = await sampledAllocationBytes(() => {
    for (let pass = 0; pass < 3; pass++) for (const app of apps) stamp(app);
  });
  return Math.round(bytes / (3 * apps.length));
}

async function main(): Promise<void> {
  const apps = desiredApplications();
  for (const app of apps.slice(0, 200)) assert.deepEqual(stampOnCreate(app), referenceApplyIntentOnCreate(app));
  const current: number[] = [];
  const reference: number[] = [];
  const ratios: number[] = [];
  timeMs(apps, stampOnCreate); // warm both before measuring
  timeMs(apps, referenceApplyIntentOnCreate);
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so a drift within a round touches both alike.
    let ours: number;
    let baseline: number;
    if (round % 2 === 0) {
      ours = timeMs(apps, stampOnCreate);
      baseline = timeMs(apps, referenceApplyIntentOnCreate);
    } else {
      baseline = timeMs(apps, referenceApplyIntentOnCreate);
      ours = timeMs(apps, stampOnCreate);
    }
    current.push(ours);
    reference.push(baseline);
    ratios.push(ours / baseline);
  }
  const figures = {
    applications: APPLICATIONS,
    rounds: ROUNDS,
    currentMsPer10k: roundTo(median(current)),
    firstImplementationMsPer10k: roundTo(median(reference)),
    microsecondsPerApplication: {
      current: roundTo((median(current) * 1000) / APPLICATIONS),
      firstImplementation: roundTo((median(reference) * 1000) / APPLICATIONS),
    },
    pairedRatio: roundTo(median(ratios)),
    // The intent hash's canonical JSON was a sixth of all a replica allocated in a converge (session 32).
    bytesAllocatedPerApplication: {
      current: await bytesPerStamp(apps, stampOnCreate),
      firstImplementation: await bytesPerStamp(apps, referenceApplyIntentOnCreate),
    },
  };
  process.stdout.write(
    `applyIntent on create, ${APPLICATIONS} Applications, median of ${ROUNDS} alternating rounds:\n` +
      `  current               ${figures.currentMsPer10k} ms (${figures.microsecondsPerApplication.current} µs each)\n` +
      `  first implementation  ${figures.firstImplementationMsPer10k} ms (${figures.microsecondsPerApplication.firstImplementation} µs each)\n` +
      `  paired ratio          ${figures.pairedRatio}\n` +
      `  bytes allocated each  ${figures.bytesAllocatedPerApplication.current} against ${figures.bytesAllocatedPerApplication.firstImplementation}\n`,
  );
  process.stderr.write(`results written to ${writeBenchResults('apply-intent', figures)}\n`);
}

await main();
