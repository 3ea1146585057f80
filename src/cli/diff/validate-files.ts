import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { CommandValues } from '../../config/option-table.js';
import { RepoCache } from '../../git/repo-cache.js';
import {
  applicationSetsIn,
  mappedGit,
  readClusterSecrets,
  readConfigMaps,
  readDecisionObjects,
  readYamlDocuments,
  renderDeps,
} from '../render-applicationsets.js';
import { readAssumptions } from './assumption-settings.js';
import { ApplicationIndex, compareApplicationSets, INVALID_MANIFEST, manifestFailureMessage } from './compare.js';
import { manifestProblems } from './manifest-shape.js';
import { previewDeps, projectsIn } from './preview-deps.js';

/** What `appset validate` reads. */
export interface ValidateInput {
  readonly files: readonly string[];
  readonly repos: ReadonlyMap<string, string>;
  /** The controller settings flags (namespace, policy, quotas). */
  readonly flags: CommandValues;
  readonly projectsFile?: string;
  readonly clustersFile?: string;
}

/**
 * Every ApplicationSet of the files the controller would refuse or fail on, as a fresh cluster would see it (no
 * Application exists yet), and every AppProject (of the files and the projects file) the API server would refuse:
 * `ApplicationSet ns/name: Reason: message`, one line each. Empty when all pass.
 */
export async function validateFiles(input: ValidateInput): Promise<string[]> {
  const assume = readAssumptions(input.flags, process.env);
  const documents = input.files.flatMap(readYamlDocuments);
  const projectDocuments = [...documents, ...(input.projectsFile ? readYamlDocuments(input.projectsFile) : [])];
  const projectProblems = appProjectProblems(projectDocuments, assume.controllerNamespace);
  const projects = projectsIn(projectDocuments, assume.controllerNamespace);
  const appsets = applicationSetsIn(documents, assume.controllerNamespace).map((a) => ({ ...a, metadata: { ...a.metadata, uid: 'appset-validate' } }));
  const cacheRoot = mkdtempSync(join(tmpdir(), 'appset-validate-'));
  try {
    const git = mappedGit(new RepoCache({ root: cacheRoot }), input.repos);
    const deps = previewDeps(
      renderDeps(git, readClusterSecrets(input.clustersFile), readConfigMaps(input.clustersFile), readDecisionObjects(input.clustersFile)),
      projects,
      assume,
    );
    const diffs = await compareApplicationSets(deps, appsets, new ApplicationIndex([]), () => 'added', { ownKeysOnly: false }, pino({ level: 'silent' }));
    return [
      ...projectProblems,
      ...diffs
        .filter((d) => d.verdict.result !== 'accepted')
        .map((d) => `ApplicationSet ${d.namespace}/${d.name}: ${d.verdict.reason ?? ''}: ${d.verdict.message ?? ''}`),
    ];
  } finally {
    rmSync(cacheRoot, { recursive: true, force: true });
  }
}

/** The AppProject documents the API server would refuse, one line each, in the controller's namespace unless they name one. */
function appProjectProblems(documents: readonly unknown[], controllerNamespace: string): string[] {
  return documents.flatMap((doc) => {
    const object = doc as { kind?: unknown; metadata?: unknown } | null;
    if (object?.kind !== 'AppProject') return [];
    const metadata = object.metadata !== null && typeof object.metadata === 'object' ? (object.metadata as { name?: unknown; namespace?: unknown }) : undefined;
    const namespace = typeof metadata?.namespace === 'string' ? metadata.namespace : controllerNamespace;
    const problems = manifestProblems(metadata ? { ...object, metadata: { namespace, ...metadata } } : object, 'AppProject');
    if (problems.length === 0) return [];
    return [`AppProject ${namespace}/${String(metadata?.name)}: ${INVALID_MANIFEST}: ${manifestFailureMessage(problems)}`];
  });
}
