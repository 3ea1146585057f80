// Differential tests: this project's renderer against Argo CD's own ApplicationSet controller code.
//
// Every file of test/differential/corpus/ (one or more ApplicationSets, multi-document YAML) is rendered twice:
// by this project's `appset render` code in-process (renderFiles: all or nothing, throws on a refusal), and by
// argocd-render (go-build/argocd-render/), which runs Argo CD v3's ApplicationSetReconciler.Reconcile, generators
// and repo-server code against a fake cluster and prints the Applications Argo CD created. Both read the cluster
// Secrets of test/differential/clusters.yaml and the repository https://github.com/example/monorepo.git from a
// local Git repository built from test/differential/monorepo/; the pullRequest and scmProvider cases name a GitHub
// Enterprise API that both renderers ask (fake-github.ts, started here). The Applications are compared whole (apiVersion,
// kind, name, namespace, labels, annotations, finalizers, spec) after the same reduction; a difference fails the
// case with a field-level diff.
//
// A corpus file may declare in its header comment how this project differs on purpose:
//   # expect: deliberate <reason>   this project refuses (throws) where Argo CD renders something, e.g. a missing
//                                   template parameter, or all or nothing where Argo CD creates the valid part
//   # expect: both-refuse           both refuse: this project throws, Argo CD creates nothing and reports why
//   # expect: open <rule>           a difference found and not fixed yet (issue 22): passes while it differs, fails
//                                   once both agree, so the mark goes with the fix
// Such a case passes only if the difference is of the declared kind, so a fix that makes it equal shows up.
//
// The argocd-render binary comes from test/run.ts (env APPSET_ARGOCD_RENDER), which builds it up front with
// go-build/build-binaries.sh argocd; the file is `.int` to keep it out of `--unit`, though it needs no cluster.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readClusterSecrets, readConfigMaps, readDecisionObjects, renderFiles } from '../../src/cli/render-applicationsets.js';
import { ARGOCD_APPLICATION_SPEC_SHAPE } from '../../src/model/argocd-application-shape.js';
import { renderWithArgoCd } from './argocd-render.js';
import { readCorpus } from './corpus.js';
import { buildMonorepo, MONOREPO_URL } from './monorepo.js';
import { SCM_API_PLACEHOLDER, startFakeGithub } from './fake-github.js';
import { PLUGIN_PLACEHOLDER, startFakePlugin } from './fake-plugin.js';
import { judge, type OurResult } from './verdict.js';

// Compiled to dist/test/differential/: the corpus stays in the source tree.
const here = fileURLToPath(new URL('../../../test/differential/', import.meta.url));
const clustersSource = `${here}clusters.yaml`;
const binary = process.env.APPSET_ARGOCD_RENDER;
const run = promisify(execFile);

/** This project's renderer on one file with the cluster file's Secrets and ConfigMaps; a thrown error is its refusal. */
async function renderOurs(file: string, repo: string, clustersFile: string): Promise<OurResult> {
  const clusters = readClusterSecrets(clustersFile);
  try {
    const applications = await renderFiles({
      files: [file],
      repos: new Map([[MONOREPO_URL, repo]]),
      clusters,
      configMaps: readConfigMaps(clustersFile),
      decisionObjects: readDecisionObjects(clustersFile),
    });
    return { kind: 'rendered', applications };
  } catch (error) {
    return { kind: 'refused', message: error instanceof Error ? error.message : String(error) };
  }
}

describe('differential: this project renders what Argo CD renders', () => {
  const cases = readCorpus(`${here}corpus`);
  const tally = { cases: cases.length, matched: 0, deliberate: 0, bothRefuse: 0, open: 0, differ: 0 };
  let repo = '';
  let github: Awaited<ReturnType<typeof startFakeGithub>> | undefined;
  let plugin: Awaited<ReturnType<typeof startFakePlugin>> | undefined;
  const substituted = mkdtempSync(join(tmpdir(), 'differential-cases-'));
  const clustersFile = join(substituted, 'clusters.yaml');

  /** `text` naming the fake services' real origins in place of their placeholders. */
  const withOrigins = (text: string): string =>
    text.replaceAll(SCM_API_PLACEHOLDER, github?.origin ?? SCM_API_PLACEHOLDER).replaceAll(PLUGIN_PLACEHOLDER, plugin?.origin ?? PLUGIN_PLACEHOLDER);

  /** A corpus file, or a copy of it with the real origins when it names a placeholder. */
  const fileFor = (file: string): string => {
    const text = readFileSync(file, 'utf8');
    if (withOrigins(text) === text) return file;
    const copy = join(substituted, basename(file));
    writeFileSync(copy, withOrigins(text));
    return copy;
  };

  before(async () => {
    if (!binary) throw new Error('APPSET_ARGOCD_RENDER is not set: run the differential tests through test/run.ts, which builds argocd-render');
    repo = await buildMonorepo(`${here}monorepo`);
    github = await startFakeGithub();
    plugin = await startFakePlugin();
    writeFileSync(clustersFile, withOrigins(readFileSync(clustersSource, 'utf8')));
  });

  after(async () => {
    await github?.close();
    await plugin?.close();
    rmSync(substituted, { recursive: true, force: true });
    if (repo) rmSync(dirname(repo), { recursive: true, force: true });
    const { cases: n, matched, deliberate, bothRefuse, open, differ } = tally;
    console.log(
      `differential: ${n} cases, ${matched} matched, ${deliberate} deliberate, ${bothRefuse} both-refuse, ${open} open (known, not fixed yet), ${differ} differ`,
    );
  });

  it('has a corpus', () => assert.ok(cases.length > 0, `no *.yaml in ${here}corpus`));

  it("holds the same Go shape of Argo CD's ApplicationSpec as argocd-render prints", async () => {
    const { stdout } = await run(binary ?? '', ['--print-application-shape']);
    assert.deepEqual(
      ARGOCD_APPLICATION_SPEC_SHAPE,
      JSON.parse(stdout),
      'regenerate src/model/argocd-application-shape.ts from argocd-render --print-application-shape',
    );
  });

  for (const testCase of cases) {
    it(testCase.name, async () => {
      const file = fileFor(testCase.file);
      const args = [file, '--repo', `${MONOREPO_URL}=${repo}`, '--clusters', clustersFile];
      const [ours, theirs] = await Promise.all([renderOurs(file, repo, clustersFile), renderWithArgoCd(binary ?? '', args)]);
      const verdict = judge(testCase.expectation, ours, theirs);
      if (!verdict.pass) {
        tally.differ++;
        assert.fail(`${testCase.name}: ${verdict.message}`);
      }
      tally[verdict.outcome === 'both-refuse' ? 'bothRefuse' : verdict.outcome]++;
    });
  }
});
