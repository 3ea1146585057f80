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
import { ApplicationIndex, compareApplicationSets } from './compare.js';
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
 * Application exists yet): `ApplicationSet ns/name: Reason: message`, one line each. Empty when all pass.
 */
export async function validateFiles(input: ValidateInput): Promise<string[]> {
  const assume = readAssumptions(input.flags, process.env);
  const documents = input.files.flatMap(readYamlDocuments);
  const projects = projectsIn([...documents, ...(input.projectsFile ? readYamlDocuments(input.projectsFile) : [])], assume.controllerNamespace);
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
    return diffs
      .filter((d) => d.verdict.result !== 'accepted')
      .map((d) => `ApplicationSet ${d.namespace}/${d.name}: ${d.verdict.reason ?? ''}: ${d.verdict.message ?? ''}`);
  } finally {
    rmSync(cacheRoot, { recursive: true, force: true });
  }
}
