import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { parseAllDocuments } from 'yaml';
import { OWNER_UID_INDEX, ownerUidsOf } from '../../src/controller/routing/caches.js';
import { createReconciler } from '../../src/controller/reconcile/reconciler.js';
import { ReconcileFailure } from '../../src/controller/reconcile/failure.js';
import { projectsIn } from '../../src/cli/diff/preview-deps.js';
import { main } from '../../src/cli/main.js';
import { createGeneratorRegistry } from '../../src/generators/registry.js';
import type { GitReader } from '../../src/git/git-reader.js';
import type { KubeObject } from '../../src/kube/informer/index.js';
import { Store } from '../../src/kube/informer/store.js';
import type { Application } from '../../src/model/objects.js';
import { noScmAccess } from '../../src/scm/no-access.js';
import { TemplateEngine } from '../../src/templating/engine.js';
import { git } from '../../src/environment/local/git-fixtures.js';
import type { DiffReport } from '../../src/cli/diff/diff-report.js';

/** The controller settings both sides of a parity test run with. */
export interface Settings {
  readonly maxDeleteShare?: number;
  readonly perApplicationSet?: number;
  readonly perNamespace?: number;
  /** `--enable-progressive-syncs` on both sides. */
  readonly progressiveSyncs?: boolean;
}

const noGit: GitReader = {
  resolveRevision: () => Promise.reject(new Error('no Git here')),
  listDirectories: () => Promise.reject(new Error('no Git here')),
  listFiles: () => Promise.reject(new Error('no Git here')),
  readFile: () => Promise.reject(new Error('no Git here')),
};

/** The UID `appset diff` gives an ApplicationSet in Git mode; the controller side uses the same, so owner names in messages match. */
export const uidOf = (namespace: string, name: string): string => `appset-diff:${namespace}/${name}`;

function manifests(yaml: string): KubeObject[] {
  return parseAllDocuments(yaml)
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null && o.kind === 'ApplicationSet')
    .map((o) => {
      const namespace = o.metadata?.namespace ?? 'argocd';
      return { ...o, metadata: { ...o.metadata, namespace, uid: uidOf(namespace, o.metadata?.name ?? ''), resourceVersion: '1' } };
    });
}

/**
 * The real controller's verdict on `head` after it reconciled `base`: every base ApplicationSet is reconciled
 * (its writes kept as the cluster's Applications), then each head ApplicationSet; returns the failure of each
 * head ApplicationSet by `namespace/name` (reason, the condition's message, whether it is terminal), or `ok`.
 */
export async function controllerVerdicts(
  base: string,
  head: string,
  projectsYaml: string,
  settings: Settings = {},
): Promise<Map<string, { reason: string; message: string; terminal: boolean } | 'ok'>> {
  const projects = projectsIn(
    parseAllDocuments(projectsYaml).map((d) => d.toJS() as unknown),
    'argocd',
  );
  const applications = new Store<KubeObject>({ [OWNER_UID_INDEX]: ownerUidsOf });
  const run = async (yaml: string, keep: boolean): Promise<Map<string, { reason: string; message: string; terminal: boolean } | 'ok'>> => {
    const applicationSets = new Store<KubeObject>();
    const sets = manifests(yaml);
    for (const set of sets) applicationSets.upsert(set);
    const applied: Application[] = [];
    const reconcile = createReconciler({
      applicationSets,
      applications,
      registry: createGeneratorRegistry(),
      git: noGit,
      tenantGit: () => noGit,
      scm: noScmAccess('none'),
      tenantScm: () => noScmAccess('none'),
      engine: new TemplateEngine(),
      clusterSecrets: () => [],
      writer: {
        apply: (app) => Promise.resolve(void applied.push(app)),
        delete: () => Promise.resolve(),
        startOperation: () => Promise.reject(new Error('no rollout here')),
      },
      refresh: { clear: () => Promise.resolve() },
      reporter: {
        status: { write: () => Promise.resolve(undefined) },
        events: { record: () => Promise.resolve() },
        now: () => new Date('2026-12-01T00:00:00Z'),
        maxResourcesStatus: 5000,
      },
      settings: {
        policy: 'sync',
        enablePolicyOverride: true,
        maxDeleteShare: settings.maxDeleteShare ?? 0.5,
        progressiveSyncs: settings.progressiveSyncs ?? false,
      },
      controllerNamespace: 'argocd',
      projects: (name) => projects.get(name),
      quotas: { perApplicationSet: settings.perApplicationSet ?? 0, perNamespace: settings.perNamespace ?? 0 },
    });
    const verdicts = new Map<string, { reason: string; message: string; terminal: boolean } | 'ok'>();
    const ctx = { signal: new AbortController().signal, log: pino({ level: 'silent' }), reconcileId: 'parity' };
    for (const set of sets) {
      const key = `${set.metadata?.namespace ?? ''}/${set.metadata?.name ?? ''}`;
      verdicts.set(
        key,
        await reconcile(key, ctx).then(
          () => 'ok' as const,
          (error: unknown) => {
            if (!(error instanceof ReconcileFailure)) throw error;
            return { reason: error.reason, message: error.message, terminal: error.terminal };
          },
        ),
      );
    }
    if (keep) for (const app of applied) applications.upsert({ ...app, metadata: { ...app.metadata, uid: `app-${app.metadata.name}`, resourceVersion: '1' } });
    return verdicts;
  };
  await run(base, true);
  return run(head, false);
}

/** A real repository with `appsets.yaml` committed twice (base, then head); returns its path. */
export async function twoCommitRepo(base: string, head: string, extra: Readonly<Record<string, string>> = {}): Promise<string> {
  const repo = mkdtempSync(join(tmpdir(), 'diff-repo-'));
  await git(repo, ['init', '-q']);
  for (const [path, text] of Object.entries(extra)) writeFileSync(join(repo, path), text);
  writeFileSync(join(repo, 'appsets.yaml'), base);
  await git(repo, ['add', '-A']);
  await git(repo, ['commit', '-q', '-m', 'base']);
  await git(repo, ['tag', 'base']);
  writeFileSync(join(repo, 'appsets.yaml'), head);
  await git(repo, ['commit', '-q', '-am', 'head']);
  return repo;
}

/** Runs `appset diff` with `args`; returns the exit code and the parsed JSON report (when -o json) or the text. */
export async function runDiff(args: readonly string[]): Promise<{ code: number; out: string; err: string; report?: DiffReport }> {
  let out = '';
  let err = '';
  const code = await main(['diff', ...args], { out: (t) => void (out += t), err: (t) => void (err += t) });
  const json = args.includes('json');
  return { code, out, err, ...(json && out.trim().startsWith('{') ? { report: JSON.parse(out) as DiffReport } : {}) };
}

/** Writes `text` to a fresh temporary file and returns its path. */
export function tempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'diff-file-')), name);
  writeFileSync(path, text);
  return path;
}
