import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { git } from '../../src/environment/local/git-fixtures.js';
import { runDiff } from './diff-harness.js';

const COMPARED = 'https://git.example/org/platform.git';
const OTHER = 'https://git.example/org/other.git';

/** An ApplicationSet with one Application per folder of `repoURL` under `dir/`, read at `revision`. */
function folders(name: string, repoURL: string, dir: string, revision = 'HEAD'): string {
  return JSON.stringify({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name, namespace: 'argocd' },
    spec: {
      generators: [{ git: { repoURL, revision, directories: [{ path: `${dir}/*` }] } }],
      template: {
        metadata: { name: `${name}-{{path.basename}}` },
        spec: {
          project: 'default',
          source: { repoURL: COMPARED, path: '{{path}}', targetRevision: 'main' },
          destination: { server: 'https://kubernetes.default.svc', namespace: '{{path.basename}}' },
        },
      },
    },
  });
}

/** Each spelling of the compared repository a generator may use: the controller's webhook takes them all for it. */
const SPELLINGS: Record<string, string> = {
  scp: 'git@git.example:org/platform',
  ssh: 'ssh://git@git.example/org/platform.git',
  https: 'https://GIT.example/org/platform/',
  exact: COMPARED,
};

async function commitAll(repo: string, files: Readonly<Record<string, string>>, message: string): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(repo, path, '..'), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  await git(repo, ['add', '-A']);
  await git(repo, ['commit', '-q', '-m', message]);
}

describe('appset diff, Git mode: every spelling of the compared repository is read at the side under review', () => {
  let repo: string;
  let other: string;
  before(async () => {
    other = mkdtempSync(join(tmpdir(), 'diff-other-'));
    await git(other, ['init', '-q']);
    await commitAll(other, { 'svc/one/app.yaml': '1' }, 'other');
    repo = mkdtempSync(join(tmpdir(), 'diff-spell-'));
    await git(repo, ['init', '-q']);
    const sets = Object.entries(SPELLINGS).map(([name, url]) => folders(name, url, 'web'));
    // Another repository, under another spelling of its --repo: not part of the change, the same on both sides.
    sets.push(folders('svc', 'git@git.example:org/other.git', 'svc'));
    // The compared repository at a tag: still the change under review (the revision a generator names does not unpin it).
    sets.push(folders('tagged', COMPARED, 'web', 'v1'));
    await commitAll(repo, { 'web/a/app.yaml': 'a', 'appsets.yaml': sets.join('\n---\n') }, 'base');
    await git(repo, ['tag', 'base']);
    await git(repo, ['tag', 'v1']);
    await commitAll(repo, { 'web/b/app.yaml': 'b' }, 'head');
  });

  it('the https, ssh and scp forms, with or without .git, are pinned; another repository is read through its --repo under any spelling', async () => {
    const { code, report, err } = await runDiff([
      '--repo',
      `${COMPARED}=${repo}`,
      '--repo',
      `${OTHER}=${other}`,
      '--base',
      'base',
      '--head',
      'HEAD',
      '-o',
      'json',
    ]);
    assert.equal(code, 1, err);
    const byName = new Map(report?.applicationSets.map((s) => [s.name, s]));
    for (const name of [...Object.keys(SPELLINGS), 'tagged']) {
      const set = byName.get(name);
      assert.deepEqual(set?.verdict, { result: 'accepted' }, `${name}: ${JSON.stringify(set?.verdict)}`);
      assert.deepEqual(
        set?.changes.map((c) => [c.name, c.action]),
        [[`${name}-b`, 'create']],
        `${name} reads the compared repository at each side`,
      );
      assert.equal(set?.unchanged, 1);
    }
    const svc = byName.get('svc');
    assert.deepEqual([svc?.verdict, svc?.changes, svc?.unchanged], [{ result: 'accepted' }, [], 1]);
  });
});
