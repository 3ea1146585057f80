import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { formatMarkdown } from '../../src/cli/diff/format-markdown.js';
import { main } from '../../src/cli/main.js';
import { git } from '../../src/environment/local/git-fixtures.js';
import { runDiff, tempFile } from './diff-harness.js';

const REPO = 'https://git.example/platform.git';

/** An ApplicationSet that makes one Application per folder under apps/ (a git directories generator over the repository itself). */
function folders(name: string, options: { targetRevision?: string; policy?: string } = {}): string {
  return JSON.stringify({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name, namespace: 'argocd' },
    spec: {
      generators: [{ git: { repoURL: REPO, revision: 'HEAD', directories: [{ path: `${name}/*` }] } }],
      template: {
        metadata: { name: `${name}-{{path.basename}}` },
        spec: {
          project: 'default',
          source: { repoURL: REPO, path: '{{path}}', targetRevision: options.targetRevision ?? 'main' },
          destination: { server: 'https://kubernetes.default.svc', namespace: '{{path.basename}}' },
        },
      },
      ...(options.policy ? { syncPolicy: { applicationsSync: options.policy } } : {}),
    },
  });
}

function write(root: string, files: Readonly<Record<string, string | null>>): void {
  for (const [path, text] of Object.entries(files)) {
    const full = join(root, path);
    if (text === null) rmSync(full, { recursive: true, force: true });
    else {
      mkdirSync(join(full, '..'), { recursive: true });
      writeFileSync(full, text);
    }
  }
}

describe('appset diff, Git mode, on a real repository with two commits', () => {
  let repo: string;
  before(async () => {
    repo = mkdtempSync(join(tmpdir(), 'diff-e2e-'));
    await git(repo, ['init', '-q']);
    write(repo, {
      'web/a/app.yaml': 'a',
      'web/b/app.yaml': 'b',
      'web/c/app.yaml': 'c',
      'jobs/x/job.yaml': 'x',
      'old/z/z.yaml': 'z',
      'appsets/web.yaml': folders('web'),
      'appsets/jobs.yaml': folders('jobs', { policy: 'create-only' }),
      'appsets/old.yaml': folders('old'),
    });
    await git(repo, ['add', '-A']);
    await git(repo, ['commit', '-q', '-m', 'base']);
    await git(repo, ['tag', 'base']);
    // The change under review: a new folder, a removed folder, a new revision for web, a new job (create-only), old/ gone.
    write(repo, {
      'web/d/app.yaml': 'd',
      'web/c': null,
      'appsets/web.yaml': folders('web', { targetRevision: 'v2' }),
      'jobs/y/job.yaml': 'y',
      'appsets/old.yaml': null,
    });
    await git(repo, ['add', '-A']);
    await git(repo, ['commit', '-q', '-m', 'head']);
  });

  it('reports creates, deletes and field changes per Application, the policy, and a removed ApplicationSet; exit 1', async () => {
    const { code, report, err } = await runDiff(['--repo', `${REPO}=${repo}`, '--base', 'base', '--head', 'HEAD', '-o', 'json']);
    assert.equal(code, 1, err);
    assert.equal(report?.schemaVersion, 1);
    const sets = new Map(report?.applicationSets.map((s) => [s.name, s]));
    const web = sets.get('web');
    assert.deepEqual(
      web?.changes.map((c) => [c.name, c.action]),
      [
        ['web-a', 'update'],
        ['web-b', 'update'],
        ['web-c', 'delete'],
        ['web-d', 'create'],
      ],
    );
    assert.deepEqual(web?.changes[0]?.fields, [{ path: 'spec.source.targetRevision', kind: 'changed', before: 'main', after: 'v2' }]);
    assert.deepEqual(web?.verdict, { result: 'accepted' });
    const jobs = sets.get('jobs');
    assert.equal(jobs?.policy, 'create-only');
    assert.deepEqual(
      jobs?.changes.map((c) => [c.name, c.action]),
      [['jobs-y', 'create']],
    );
    assert.equal(jobs?.unchanged, 1);
    const old = sets.get('old');
    assert.equal(old?.presence, 'removed');
    assert.deepEqual(
      old?.changes.map((c) => [c.name, c.action]),
      [['old-z', 'delete']],
    );
    assert.deepEqual(report?.summary, { applicationSets: 3, changed: 3, created: 2, updated: 2, deleted: 2, unchanged: 1, refused: 0, failed: 0 });
  });

  it('compares the work tree (uncommitted and untracked files) without --head, and leaves the repository as it was', async () => {
    const status = await git(repo, ['status', '--porcelain']);
    write(repo, { 'web/e/app.yaml': 'e' });
    try {
      const { code, report, err } = await runDiff(['--repo', `${REPO}=${repo}`, '--base', 'HEAD', '-o', 'json', join(repo, 'appsets/web.yaml')]);
      assert.equal(code, 1, err);
      assert.equal(report?.head, 'work tree');
      assert.deepEqual(
        report?.applicationSets.flatMap((s) => s.changes.map((c) => [c.name, c.action])),
        [['web-e', 'create']],
      );
      assert.equal(await git(repo, ['status', '--porcelain']), `${status}${status ? '\n' : ''}?? web/e/`);
    } finally {
      write(repo, { 'web/e': null });
    }
  });

  it('exits 0 with no change', async () => {
    const { code, out, err } = await runDiff(['--repo', `${REPO}=${repo}`, '--base', 'HEAD', '--head', 'HEAD']);
    assert.equal(code, 0, err);
    assert.match(out, /^2 ApplicationSets, 0 changed: 0 to create, 0 to update, 0 to delete, 5 unchanged; 0 refused, 0 failed\n$/);
  });

  it('-o text: one block per changed ApplicationSet, no colour when not a terminal, colour on one', async () => {
    const args = ['diff', '--repo', `${REPO}=${repo}`, '--base', 'base', '--head', 'HEAD'];
    let plain = '';
    let coloured = '';
    assert.equal(await main(args, { out: (t) => void (plain += t), err: () => undefined }), 1);
    assert.equal(await main(args, { out: (t) => void (coloured += t), err: () => undefined, isTerminal: true }), 1);
    assert.equal(plain.includes('\u001b['), false);
    assert.ok(coloured.includes('\u001b[32m'));
    assert.match(plain, /ApplicationSet argocd\/web: policy sync · 1 to create · 2 to update · 1 to delete · 0 unchanged/);
    assert.match(plain, /~ spec\.source\.targetRevision: "main" → "v2"/);
    assert.match(plain, /note: sync policy create-only|ApplicationSet argocd\/jobs/);
  });

  it('-o markdown: one section per ApplicationSet, each change in a <details> block', async () => {
    const { code, out } = await runDiff(['--repo', `${REPO}=${repo}`, '--base', 'base', '--head', 'HEAD', '-o', 'markdown']);
    assert.equal(code, 1);
    assert.match(out, /^## appset diff\n/);
    assert.equal(out.match(/^### ApplicationSet /gm)?.length, 3);
    assert.equal(out.match(/<details>/g)?.length, 6);
    assert.match(out, /```diff\n! spec\.source\.targetRevision: "main" → "v2"\n```/);
  });

  it('-o markdown is capped for a pull-request comment, with a note', async () => {
    const { report } = await runDiff(['--repo', `${REPO}=${repo}`, '--base', 'base', '--head', 'HEAD', '-o', 'json']);
    assert.ok(report);
    const capped = formatMarkdown(report, 900);
    assert.ok(capped.length <= 900, String(capped.length));
    assert.match(capped, /Output cut at 900 characters: \d+ more ApplicationSets? not shown/);
  });

  it('the deletion guard lets one delete among survivors through even at --max-delete-share 0, as the controller does', async () => {
    const projects = tempFile('projects.yaml', '');
    const { code, report } = await runDiff([
      '--repo',
      `${REPO}=${repo}`,
      '--base',
      'base',
      '--head',
      'HEAD',
      '--max-delete-share',
      '0',
      '-o',
      'json',
      '--projects',
      projects,
    ]);
    assert.equal(code, 1);
    assert.equal(report?.summary.refused, 0);
  });

  it('bad input gets a clear error and exit 2', async () => {
    const missingRev = await runDiff(['--repo', `${REPO}=${repo}`, '--base', 'no-such-branch']);
    assert.equal(missingRev.code, 2);
    assert.match(missingRev.err, /revision "no-such-branch" is not a commit of/);
    const noBase = await runDiff(['--repo', `${REPO}=${repo}`]);
    assert.equal(noBase.code, 2);
    assert.match(noBase.err, /needs --repo REPO_URL=LOCAL_PATH and --base REV/);
    const badOutput = await runDiff(['--live', 'x.yaml', '-o', 'yaml']);
    assert.match(badOutput.err, /-o must be one of text, markdown, json/);
    const badShare = await runDiff(['--repo', `${REPO}=${repo}`, '--base', 'base', '--max-delete-share', '2']);
    assert.equal(badShare.code, 2);
    assert.match(badShare.err, /--max-delete-share/);
  });
});

describe('appset validate', () => {
  async function validate(args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await main(['validate', ...args], { out: (t) => void (out += t), err: (t) => void (err += t) });
    return { code, out, err };
  }
  const list = (project: string, name = '{{env}}'): string =>
    JSON.stringify({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'ApplicationSet',
      metadata: { name: 'guestbook', namespace: 'argocd' },
      spec: {
        generators: [{ list: { elements: [{ env: 'dev' }, { env: 'Prod' }] } }],
        template: {
          metadata: { name },
          spec: { project, source: { repoURL: REPO, path: 'x' }, destination: { server: 'https://kubernetes.default.svc', namespace: 'x' } },
        },
      },
    });

  it('prints nothing and exits 0 when the controller would accept the files', async () => {
    assert.deepEqual(await validate([tempFile('ok.yaml', list('default', 'guestbook-{{env}}').replace('Prod', 'prod'))]), { code: 0, out: '', err: '' });
  });

  it('names the ApplicationSet, the condition reason and message, exit 1: names, policy, schema', async () => {
    const badName = await validate([tempFile('name.yaml', list('default'))]);
    assert.equal(badName.code, 1);
    assert.match(
      badName.err,
      /^ApplicationSet argocd\/guestbook: ApplicationGenerationFromParamsError|^ApplicationSet argocd\/guestbook: RenderTemplateParamsError: .*Prod.*DNS-1123/,
    );
    const badProject = await validate([tempFile('project.yaml', list('nope', 'guestbook-{{env}}').replace('Prod', 'prod'))]);
    assert.match(badProject.err, /ApplicationValidationError: .*application references project nope which does not exist/);
    const noGenerators = await validate([
      tempFile('schema.yaml', JSON.stringify({ apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', metadata: { name: 'x' }, spec: {} })),
    ]);
    assert.equal(noGenerators.code, 1);
    assert.match(
      noGenerators.err,
      /InvalidManifest: the API server would refuse this manifest: (?=.*spec\.generators: Required value)(?=.*spec\.template: Required value)/,
    );
  });
});
