/**
 * Render benchmark: 10,000 Applications from a matrix-like product of two parameter lists (100 clusters x
 * 100 apps), through renderApplicationSet with the engine's compiled-template cache, side by side with a
 * baseline that calls Handlebars.compile for every field of every Application (cache size 0). Both styles.
 */
import type { ParamSet } from '../src/model/params.js';
import type { ApplicationSetForRender } from '../src/model/applicationset-types.js';
import { TemplateEngine } from '../src/templating/engine.js';
import { renderApplicationSet } from '../src/templating/render-applicationset.js';
import { writeBenchResults } from './results-file.js';

const CLUSTERS = 100;
const APPS = 100;
const ROUNDS = 3;

/** The product of the two lists, nested the way a matrix generator merges them. */
function matrixParams(): ParamSet[] {
  const clusters = Array.from({ length: CLUSTERS }, (_, i) => ({
    name: `cluster-${i}`,
    server: `https://10.0.${Math.floor(i / 250)}.${i % 250}:6443`,
    metadata: { labels: { environment: i % 2 ? 'prod' : 'staging', region: `eu-${i % 4}` } },
  }));
  const apps = Array.from({ length: APPS }, (_, j) => ({
    path: { path: `apps/team-${j % 10}/app-${j}`, basename: `app-${j}`, segments: ['apps', `team-${j % 10}`, `app-${j}`] },
  }));
  return clusters.flatMap((c) => apps.map((a) => ({ ...c, ...a })));
}

/** The ApplicationSet, in fasttemplate or goTemplate style; ten templated string fields each. */
function applicationSet(go: boolean): ApplicationSetForRender {
  const t = (fast: string, goText: string) => (go ? goText : fast);
  return {
    metadata: { name: 'bench', namespace: 'argocd' },
    spec: {
      goTemplate: go,
      generators: [{ matrix: { generators: [] } }],
      template: {
        metadata: {
          name: t('{{name}}-{{path.basename}}', '{{.name}}-{{.path.basename}}'),
          labels: {
            env: t('{{metadata.labels.environment}}', '{{.metadata.labels.environment}}'),
            team: t('{{path[1]}}', '{{index .path.segments 1}}'),
            app: t('{{path.basename}}', '{{.path.basename | lower}}'),
          },
          annotations: { region: t('{{metadata.labels.region}}', '{{ .metadata.labels.region | default "none" }}') },
        },
        spec: {
          project: 'default',
          source: {
            repoURL: 'https://git.example.test/platform/apps.git',
            targetRevision: 'HEAD',
            path: t('{{path}}', '{{.path.path}}'),
            helm: {
              releaseName: t('{{path.basename}}-{{name}}', '{{.path.basename}}-{{.name}}'),
              valueFiles: [t('values-{{metadata.labels.environment}}.yaml', 'values-{{.metadata.labels.environment}}.yaml')],
            },
          },
          destination: { server: t('{{server}}', '{{.server}}'), namespace: t('{{path.basename}}', '{{.path.basename}}') },
          syncPolicy: { automated: { prune: true } },
        },
      },
    },
  };
}

/** Applications per second over one full render of the ApplicationSet. */
function measure(go: boolean, engine: () => TemplateEngine, params: ParamSet[]): number {
  const started = performance.now();
  const apps = renderApplicationSet(applicationSet(go), [{ generatorIndex: 0, params }], {
    engine: engine(),
    limits: { timeLimitMs: 600_000, maxOutputBytes: 1e9 },
  });
  const seconds = (performance.now() - started) / 1000;
  if (apps.length !== params.length) throw new Error('benchmark rendered the wrong number of Applications');
  return apps.length / seconds;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Small reconciles in a row, as a replica runs them: 10 Applications each. */
const RECONCILES = 1_000;
const APPS_PER_RECONCILE = 10;

/**
 * Applications per second over {@link RECONCILES} reconciles of {@link APPS_PER_RECONCILE} Applications,
 * each rendering through `engineFor(reconcile)`: the production path passes the replica's one engine
 * (src/app/pipeline.ts builds it once and the reconciler hands it to renderApplicationSet); before that
 * fix every reconcile rendered with a fresh engine and an empty template cache.
 */
function measureReconciles(go: boolean, engineFor: () => TemplateEngine, params: ParamSet[]): number {
  const started = performance.now();
  for (let i = 0; i < RECONCILES; i++) {
    const offset = (i * APPS_PER_RECONCILE) % (params.length - APPS_PER_RECONCILE);
    const apps = renderApplicationSet(applicationSet(go), [{ generatorIndex: 0, params: params.slice(offset, offset + APPS_PER_RECONCILE) }], {
      engine: engineFor(),
    });
    if (apps.length !== APPS_PER_RECONCILE) throw new Error('benchmark rendered the wrong number of Applications');
  }
  return (RECONCILES * APPS_PER_RECONCILE) / ((performance.now() - started) / 1000);
}

/** The replica's engine against a fresh one per reconcile, both styles, median of ROUNDS. */
function reconcilePath(params: ParamSet[], figures: Record<string, unknown>): string[] {
  const rows: string[] = [];
  for (const go of [false, true]) {
    const style = go ? 'goTemplate' : 'fasttemplate';
    const replicaEngine = new TemplateEngine();
    const shared: number[] = [];
    const fresh: number[] = [];
    measureReconciles(go, () => replicaEngine, params);
    for (let round = 0; round < ROUNDS; round++) {
      shared.push(measureReconciles(go, () => replicaEngine, params));
      fresh.push(measureReconciles(go, () => new TemplateEngine(), params));
    }
    const ratio = median(shared) / median(fresh);
    figures[`reconciles-${style}`] = {
      reconciles: RECONCILES,
      applicationsPerReconcile: APPS_PER_RECONCILE,
      replicaEngineAppsPerSecond: Math.round(median(shared)),
      freshEngineAppsPerSecond: Math.round(median(fresh)),
      ratio: Math.round(ratio * 10) / 10,
    };
    rows.push(
      `| ${style.padEnd(12)} | ${ratio.toFixed(1).padStart(6)}x | ${Math.round(median(shared)).toString().padStart(16)} | ${Math.round(median(fresh)).toString().padStart(18)} |`,
    );
  }
  return rows;
}

function main(): void {
  const params = matrixParams();
  const figures: Record<string, unknown> = { applications: params.length, rounds: ROUNDS, fieldsPerApplication: 10 };
  const rows: string[] = [];
  for (const go of [false, true]) {
    const style = go ? 'goTemplate' : 'fasttemplate';
    const cached: number[] = [];
    const baseline: number[] = [];
    measure(go, () => new TemplateEngine(), params.slice(0, 500));
    for (let round = 0; round < ROUNDS; round++) {
      cached.push(measure(go, () => new TemplateEngine(), params));
      baseline.push(measure(go, () => new TemplateEngine(0), params));
    }
    const ratio = median(cached) / median(baseline);
    figures[style] = {
      cachedAppsPerSecond: Math.round(median(cached)),
      compileEveryFieldAppsPerSecond: Math.round(median(baseline)),
      ratio: Math.round(ratio * 10) / 10,
      cachedRounds: cached.map(Math.round),
      baselineRounds: baseline.map(Math.round),
    };
    rows.push(
      `| ${style.padEnd(12)} | ${ratio.toFixed(1).padStart(6)}x | ${Math.round(median(cached)).toString().padStart(12)} | ${Math.round(median(baseline)).toString().padStart(14)} |`,
    );
  }
  console.log(`Render ${params.length} Applications (${CLUSTERS} clusters x ${APPS} apps), median of ${ROUNDS} rounds`);
  console.log('| style        | speed-up | cached app/s | compile-each app/s |');
  console.log('|--------------|----------|--------------|--------------------|');
  for (const row of rows) console.log(row);
  const reconcileRows = reconcilePath(params, figures);
  console.log(
    `\nThe production path: ${RECONCILES} reconciles of ${APPS_PER_RECONCILE} Applications, the replica's one engine against a fresh engine per reconcile (before the fix)`,
  );
  console.log('| style        | speed-up | replica engine app/s | fresh engine app/s |');
  console.log('|--------------|----------|------------------|--------------------|');
  for (const row of reconcileRows) console.log(row);
  console.log(`results: ${writeBenchResults('render', figures)}`);
}

main();
