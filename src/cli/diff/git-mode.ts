import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { V1ConfigMap, V1Secret } from '@kubernetes/client-node';
import { pino, type Logger } from 'pino';
import { applyIntent } from '../../controller/plan/apply-intent.js';
import type { ApplicationSetObject } from '../../controller/reconcile/applicationset.js';
import { prepareReconcile } from '../../controller/reconcile/prepare.js';
import { readRollingSync } from '../../controller/rollout/rolling-sync.js';
import { rolloutWrites } from '../../controller/rollout/rollout.js';
import type { PreviewDeps } from '../../controller/reconcile/preview.js';
import type { GitReader } from '../../git/git-reader.js';
import { RepoCache } from '../../git/repo-cache.js';
import type { Application } from '../../model/objects.js';
import type { FileObject } from '../render-decision-resources.js';
import { applicationSetsIn, mappedGit, parseYamlDocuments, readYamlDocuments, renderDeps } from '../render-applicationsets.js';
import { ApplicationIndex, byNamespaceAndName, compareApplicationSets, removedApplicationSet } from './compare.js';
import { DIFF_SCHEMA_VERSION, summarize, type ApplicationSetDiff, type DiffReport } from './diff-report.js';
import { manifestPaths, pathInRepo, readAtCommit, SIDE_REFS, snapshotSides, type GitSnapshots } from './git-snapshot.js';
import { mapBounded } from '../../model/map-bounded.js';
import { normalizeGitUrl, repoIdentity } from '../../model/git-url.js';
import { previewDeps, projectsIn, type ControllerAssumptions } from './preview-deps.js';

/** What `appset diff` in Git mode reads. */
export interface GitDiffInput {
  /** `repoURL` → local path; the first is the repository whose revisions are compared. */
  readonly repos: ReadonlyMap<string, string>;
  readonly base: string;
  /** Absent: the work tree. */
  readonly head?: string;
  /** ApplicationSet files, read at both revisions when inside the repository; none: every manifest of the repository. */
  readonly files: readonly string[];
  /** `--projects`: AppProjects that decide over tenants (with the repository's own and Argo CD's `default`). */
  readonly projectsFile?: string;
  readonly clusters: readonly V1Secret[];
  readonly configMaps: readonly V1ConfigMap[];
  /** Duck-typed objects of the `--clusters` file, for clusterDecisionResource generators. */
  readonly decisionObjects: readonly FileObject[];
  readonly assume: ControllerAssumptions;
}

/** One side of the comparison: its manifests and the Git reader that pins the repository at its commit. */
interface Side {
  readonly commit: string;
  readonly appsets: ApplicationSetObject[];
  readonly deps: PreviewDeps;
}

/** The UID a previewed ApplicationSet gets: the same on both sides, so the head side owns what the base side wrote. */
const previewUid = (appset: ApplicationSetObject): string => `appset-diff:${appset.metadata.namespace}/${appset.metadata.name}`;

/**
 * Compares the Applications of the base revision with the head revision's (or the work tree's): the base side
 * is rendered as the controller would have written it, then the head side is previewed against it through the
 * controller's reconcile stages and plan, so deletes, conflicts, policies and refusals are the controller's.
 */
export async function gitDiff(input: GitDiffInput): Promise<DiffReport> {
  const [primary] = input.repos;
  if (!primary) throw new Error('Git mode needs a --repo');
  const snapshots = await snapshotSides(primary[1], input.base, input.head);
  const cacheRoot = mkdtempSync(join(tmpdir(), 'appset-diff-cache-'));
  try {
    const cache = new RepoCache({ root: cacheRoot });
    const extraProjects = input.projectsFile ? readYamlDocuments(input.projectsFile) : [];
    const side = async (commit: string, ref: string): Promise<Side> => {
      const documents = await manifestsAt(snapshots, commit, input.files);
      const git = pinnedGit(cache, snapshots, input.repos, ref);
      const projects = projectsIn([...documents, ...extraProjects], input.assume.controllerNamespace);
      const appsets = applicationSetsIn(documents, input.assume.controllerNamespace).map((a) => ({ ...a, metadata: { ...a.metadata, uid: previewUid(a) } }));
      return { commit, appsets, deps: previewDeps(renderDeps(git, input.clusters, input.configMaps, input.decisionObjects), projects, input.assume) };
    };
    const base = await side(snapshots.base, SIDE_REFS.base);
    const head = await side(snapshots.head, SIDE_REFS.head);
    const log: Logger = pino({ level: 'silent' });
    const written = await baseApplications(base, log);
    const index = new ApplicationIndex(written.flatMap((w) => w.applications));
    const atBase = new Set(base.appsets.map(previewUid));
    const diffs = await compareApplicationSets(
      head.deps,
      head.appsets,
      index,
      (a) => (atBase.has(previewUid(a)) ? 'present' : 'added'),
      { ownKeysOnly: false },
      log,
    );
    const atHead = new Set(head.appsets.map(previewUid));
    const notes = new Map(written.filter((w) => w.note).map((w) => [w.uid, w.note as string]));
    const removed = written.filter((w) => !atHead.has(w.uid)).map((w) => removedApplicationSet(w.namespace, w.name, w.applications));
    const all: ApplicationSetDiff[] = [...diffs, ...removed].map((d) => {
      const note = notes.get(`appset-diff:${d.namespace}/${d.name}`);
      return note ? { ...d, notes: [...d.notes, note] } : d;
    });
    all.sort(byNamespaceAndName);
    return {
      schemaVersion: DIFF_SCHEMA_VERSION,
      mode: 'git',
      base: snapshots.base,
      head: snapshots.headIsWorkTree ? 'work tree' : snapshots.head,
      summary: summarize(all),
      applicationSets: all,
    };
  } finally {
    rmSync(cacheRoot, { recursive: true, force: true });
    snapshots.close();
  }
}

/** The Applications one base ApplicationSet would have written, stamped as the controller stamps them. */
interface Written {
  readonly uid: string;
  readonly namespace: string;
  readonly name: string;
  readonly applications: readonly Application[];
  /** Why there are none: the base side could not be rendered. */
  readonly note?: string;
}

/**
 * The base side as the cluster would hold it: each ApplicationSet's Applications as the controller creates them.
 * A base ApplicationSet the controller refuses has written nothing (as far as this preview can know).
 */
async function baseApplications(base: Side, log: Logger): Promise<Written[]> {
  const signal = new AbortController().signal;
  return mapBounded(base.appsets, 8, async (appset) => {
    const id = { uid: previewUid(appset), namespace: appset.metadata.namespace, name: appset.metadata.name };
    try {
      const prepared = await prepareReconcile(base.deps, appset, { signal, log, freshRefs: false, namespaceCount: () => ({ inNamespace: 0, owned: 0 }) });
      // As the rollout wrote them, with progressive syncs (without automated sync while a RollingSync has steps).
      const strategy = base.deps.settings.progressiveSyncs === true ? readRollingSync(appset.spec.strategy) : undefined;
      const desired = strategy ? rolloutWrites(strategy, prepared.desired).desired : prepared.desired;
      return { ...id, applications: desired.map((app) => applyIntent(app, undefined, prepared.rules)) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ...id, applications: [], note: `at the base revision the controller could not reconcile it (${message}); it is compared with no Applications` };
    }
  });
}

/** The manifests of one side: the named files (at the commit when inside the repository), or every manifest of the repository. */
async function manifestsAt(snapshots: GitSnapshots, commit: string, files: readonly string[]): Promise<unknown[]> {
  if (files.length === 0) {
    const paths = await manifestPaths(snapshots.scratch, commit);
    const texts = await readAtCommit(snapshots.scratch, commit, paths);
    return paths.flatMap((path) => parseYamlDocuments(texts.get(path) ?? '', path));
  }
  const inRepo = files.map((file) => ({ file, path: pathInRepo(snapshots.workTree, file) }));
  const texts = await readAtCommit(
    snapshots.scratch,
    commit,
    inRepo.flatMap((f) => (f.path === undefined ? [] : [f.path])),
  );
  return inRepo.flatMap(({ file, path }) => {
    // A file of the repository that does not exist at this commit holds nothing there (added or removed by the change).
    if (path !== undefined) return parseYamlDocuments(texts.get(path) ?? '', path);
    return parseYamlDocuments(readFileSync(file, 'utf8'), file);
  });
}

/**
 * The Git reader of one side. The change under review is the compared repository's (the first `--repo`, and any
 * other `--repo` inside its work tree): a generator that reads it, under any spelling the controller's webhook
 * takes for the same repository (https or ssh/scp form, with or without `.git`, a trailing slash, the host's
 * case), reads the scratch repository at the side's ref, whatever revision it names. Any other repository is not
 * part of the change: it is read as `appset render` reads it (its `--repo` copy under any spelling, else the
 * remote), at the revision the generator names, the same on both sides.
 */
function pinnedGit(cache: GitReader, snapshots: GitSnapshots, repos: ReadonlyMap<string, string>, ref: string): GitReader {
  const scratchUrl = pathToFileURL(snapshots.scratch).href;
  const [compared] = repos.keys();
  const spelled = spellings(repos);
  const pinned = new Set([...repos].filter(([url, path]) => url === compared || isInside(snapshots.workTree, path)).map(([url]) => url));
  const others = mappedGit(cache, repos);
  const at = (url: string): string | undefined => (pinned.has(spelled(url)) ? scratchUrl : undefined);
  return {
    resolveRevision: (url, revision, signal, options) => {
      const local = at(url);
      return local ? cache.resolveRevision(local, ref, signal, options) : others.resolveRevision(spelled(url), revision, signal, options);
    },
    listDirectories: (url, commit, signal) =>
      at(url) ? cache.listDirectories(at(url) as string, commit, signal) : others.listDirectories(spelled(url), commit, signal),
    listFiles: (url, commit, signal) => (at(url) ? cache.listFiles(at(url) as string, commit, signal) : others.listFiles(spelled(url), commit, signal)),
    readFile: (url, commit, path, signal) =>
      at(url) ? cache.readFile(at(url) as string, commit, path, signal) : others.readFile(spelled(url), commit, path, signal),
  };
}

/** The `--repo` URL a generator's repository URL stands for (the first `--repo` of the same repository), or the URL itself. */
function spellings(repos: ReadonlyMap<string, string>): (url: string) => string {
  const byIdentity = new Map<string, string>();
  for (const url of repos.keys()) {
    const key = repositoryKey(url);
    if (key !== '' && !byIdentity.has(key)) byIdentity.set(key, url);
  }
  return (url) => {
    if (repos.has(url)) return url;
    const key = repositoryKey(url);
    return (key !== '' && byIdentity.get(key)) || url;
  };
}

/** The webhook's identity of a repository (host and path), or Argo CD's normalised URL for others (file:// URLs). */
function repositoryKey(url: string): string {
  return repoIdentity(url) ?? normalizeGitUrl(url);
}

/** True when `path` is the work tree or inside it. */
function isInside(workTree: string, path: string): boolean {
  const inside = relative(workTree, resolve(path));
  return !inside.startsWith('..') && !isAbsolute(inside);
}
