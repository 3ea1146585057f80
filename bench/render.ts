/**
 * Render benchmark: 10,000 Applications from a matrix-like product of two parameter lists (100 clusters x
 * 100 apps), through renderApplicationSet on one long-lived engine with the default limits (what a replica
 * runs: src/app/pipeline.ts builds one TemplateEngine), side by side in the same run with a bare
 * cached-compile Handlebars loop over the same templates and parameters (bench/render-bare.ts), the
 * headline ratio; and with a baseline that calls Handlebars.compile for every field of every Application
 * (cache size 0). Both styles. And the render memo: one parameter set changed in 10,000, against rendering
 * all of them again, with the heap the memo holds (bench/render-memo.ts).
 */
import type { ParamSet } from '../src/model/params.js';
import type { ApplicationSetForRender } from '../src/model/applicationset-types.js';
import { TemplateEngine } from '../src/templating/engine.js';
import { renderApplicationSet } from '../src/templating/render-applicationset.js';
import { bareRenderer } from './render-bare.js';
import { memoPhase } from './render-memo.js';
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

/** The template texts: fasttemplate, goTemplate, or plain Handlebars that renders the same for the bare loop. */
type Texts = 'fasttemplate' | 'goTemplate' | 'bare-fasttemplate' | 'bare-goTemplate';

/** The ApplicationSet, in fasttemplate or goTemplate style; ten templated string fields each. */
function applicationSet(go: boolean, texts: Texts = go ? 'goTemplate' : 'fasttemplate'): ApplicationSetForRender {
  const t = (fast: string, goText: string, bare = fast, bareGo = bare) =>
    ({ fasttemplate: fast, goTemplate: goText, 'bare-fasttemplate': bare, 'bare-goTemplate': bareGo })[texts];
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
            team: t('{{path[1]}}', '{{index .path.segments 1}}', '{{path.segments.[1]}}'),
            app: t('{{path.basename}}', '{{.path.basename | lower}}', '{{path.basename}}', '{{lower path.basename}}'),
          },
          annotations: {
            region: t(
              '{{metadata.labels.region}}',
              '{{ .metadata.labels.region | default "none" }}',
              '{{metadata.labels.region}}',
              '{{default metadata.labels.region "none"}}',
            ),
          },
        },
        spec: {
          project: 'default',
          source: {
            repoURL: 'https://git.example.test/platform/apps.git',
            targetRevision: 'HEAD',
            path: t('{{path}}', '{{.path.path}}', '{{path.path}}'),
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

/** Applications per second of the bare Handlebars loop over the same templates and parameters. */
function measureBare(go: boolean, params: ParamSet[]): { appsPerSecond: number; apps: unknown[] } {
  const started = performance.now();
  const render = bareRenderer(applicationSet(go, go ? 'bare-goTemplate' : 'bare-fasttemplate').spec.template);
  const apps = params.map((p) => render(p));
  return { appsPerSecond: apps.length / ((performance.now() - started) / 1000), apps };
}

/** Applications per second of the replica's engine (one engine, kept warm; default limits), and its output. */
function measureReplica(go: boolean, engine: TemplateEngine, params: ParamSet[]): { appsPerSecond: number; apps: unknown[] } {
  const started = performance.now();
  const apps = renderApplicationSet(applicationSet(go), [{ generatorIndex: 0, params }], { engine }).map((r) => r.application);
  return { appsPerSecond: apps.length / ((performance.now() - started) / 1000), apps };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Fails the benchmark unless both loops rendered the same text into the same fields (same work, same answer). */
function assertSameText(replica: unknown[], bare: unknown[]): void {
  const fields = (app: unknown): unknown[] => {
    const a = app as { metadata: Record<string, unknown>; spec: { source: Record<string, unknown>; destination: unknown } };
    return [a.metadata['name'], a.metadata['labels'], a.metadata['annotations'], a.spec.source['path'], a.spec.source['helm'], a.spec.destination];
  };
  if (replica.length !== bare.length) throw new Error(`replica rendered ${replica.length} Applications, the bare loop ${bare.length}`);
  for (let i = 0; i < replica.length; i += 997) {
    // Key order aside: the replica writes the spec in Argo CD's Go field order.
    const canonical = (value: unknown): string =>
      JSON.stringify(value, (_k, v: unknown) => (isPlainObject(v) ? Object.fromEntries(Object.entries(v).sort()) : v));
    const [mine, theirs] = [canonical(fields(replica[i])), canonical(fields(bare[i]))];
    if (mine !== theirs) throw new Error(`Application ${i} differs:\n  replica ${mine}\n  bare    ${theirs}`);
  }
}

/** The headline: the replica's engine ÷ the bare loop, alternating, median of BARE_ROUNDS. */
const BARE_ROUNDS = 7;
function versusBare(params: ParamSet[], figures: Record<string, unknown>): string[] {
  const rows: string[] = [];
  for (const go of [false, true]) {
    const style = go ? 'goTemplate' : 'fasttemplate';
    const engine = new TemplateEngine();
    assertSameText(measureReplica(go, engine, params).apps, measureBare(go, params).apps);
    const replica: number[] = [];
    const bare: number[] = [];
    for (let round = 0; round < BARE_ROUNDS; round++) {
      bare.push(measureBare(go, params).appsPerSecond);
      replica.push(measureReplica(go, engine, params).appsPerSecond);
    }
    const ratio = median(replica) / median(bare);
    figures[`replica-vs-bare-${style}`] = {
      replicaEngineAppsPerSecond: Math.round(median(replica)),
      bareLoopAppsPerSecond: Math.round(median(bare)),
      ratio: Math.round(ratio * 100) / 100,
      replicaRounds: replica.map(Math.round),
      bareRounds: bare.map(Math.round),
    };
    rows.push(
      `| ${style.padEnd(12)} | ${ratio.toFixed(2).padStart(12)} | ${Math.round(median(replica)).toString().padStart(20)} | ${Math.round(median(bare)).toString().padStart(15)} |`,
    );
  }
  return rows;
}

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
  const figures: Record<string, unknown> = { applications: params.length, rounds: ROUNDS, bareRounds: BARE_ROUNDS, fieldsPerApplication: 10 };
  const bareRows = versusBare(params, figures);
  console.log(
    `Render ${params.length} Applications: the replica's engine (validation on, default limits) ÷ a bare cached-compile Handlebars loop, median of ${BARE_ROUNDS} rounds`,
  );
  console.log('| style        | replica/bare | replica engine app/s | bare loop app/s |');
  console.log('|--------------|--------------|----------------------|-----------------|');
  for (const row of bareRows) console.log(row);
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
  console.log(
    `\nRender ${params.length} Applications (${CLUSTERS} clusters x ${APPS} apps), cached engine ÷ compiling every field, median of ${ROUNDS} rounds`,
  );
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
  for (const row of memoPhase(params, (go) => applicationSet(go), figures)) console.log(row);
  console.log(`results: ${writeBenchResults('render', figures)}`);
}

main();
