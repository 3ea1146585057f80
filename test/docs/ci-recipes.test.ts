import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { git } from '../../src/environment/local/git-fixtures.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const SCRIPT = 'ci/appset-diff.sh';
const doc = (): string => readFileSync(join(root, 'docs/ci.md'), 'utf8');

/** The fenced blocks of `lang` in the markdown, in order. */
function blocks(markdown: string, lang: string): string[] {
  return [...markdown.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1] ?? '');
}

interface GithubStep {
  readonly uses?: string;
  readonly run?: string;
  readonly env?: Record<string, string>;
}
interface Recipes {
  readonly github: { jobs: { diff: { steps: GithubStep[] } } };
  readonly gitlab: { 'appset-diff': { variables: Record<string, string | number>; script: string[]; artifacts: { paths: string[] } } };
}

function recipes(): Recipes {
  const [github, gitlab] = blocks(doc(), 'yaml').map((text) => parse(text) as unknown);
  return { github, gitlab } as Recipes;
}

/**
 * Programs at the edges of a CI runner, as small scripts on PATH: `npm install` links this repository as the
 * installed package, `npx appset` runs its bin/appset.js, `gh` and `curl` record what they were asked to post.
 */
function fakeTools(log: string): string {
  const bin = mkdtempSync(join(tmpdir(), 'ci-tools-'));
  symlinkSync(process.execPath, join(bin, 'node'));
  const tools: Record<string, string> = {
    npm: `[ "$1" = install ] || exit 64\nmkdir -p node_modules && ln -sfn "${root}" node_modules/appset-controller`,
    npx: `[ "$1" = appset ] || exit 64\nshift\nexec node "${root}bin/appset.js" "$@"`,
    gh: [
      `echo "$*" >> "${log}/gh.args"`,
      'body=""; prev=""; for a in "$@"; do [ "$prev" = --body-file ] && body=$a; prev=$a; done',
      // --edit-last fails while the pull request has no comment yet, as gh does.
      `case " $* " in *" --edit-last "*) [ -f "${log}/comment.md" ] || { echo "no comments found" >&2; exit 1; };; esac`,
      `cp "$body" "${log}/comment.md"`,
    ].join('\n'),
    curl: [`echo "$*" >> "${log}/curl.args"`, 'prev=""; for a in "$@"; do [ "$prev" = --data ] && cp "${a#@}" ' + `"${log}/note.json"; prev=$a; done`].join(
      '\n',
    ),
  };
  for (const [name, body] of Object.entries(tools)) {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

const appset = (repoUrl: string): string =>
  JSON.stringify({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name: 'web', namespace: 'argocd' },
    spec: {
      generators: [{ git: { repoURL: repoUrl, revision: 'HEAD', directories: [{ path: 'apps/*' }] } }],
      template: {
        metadata: { name: 'web-{{path.basename}}' },
        spec: {
          project: 'default',
          source: { repoURL: repoUrl, path: '{{path}}', targetRevision: 'main' },
          destination: { server: 'https://kubernetes.default.svc', namespace: '{{path.basename}}' },
        },
      },
    },
  });

/** A repository whose ApplicationSet makes one Application per folder of apps/: the base has a, b, c, d. */
async function repository(repoUrl: string, headApps: readonly string[]): Promise<{ dir: string; base: string; head: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'ci-repo-'));
  const commit = async (apps: readonly string[], message: string): Promise<string> => {
    for (const app of apps) {
      mkdirSync(join(dir, 'apps', app), { recursive: true });
      writeFileSync(join(dir, 'apps', app, 'config.yaml'), `app: ${app}\n`);
    }
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '-m', message]);
    return (await git(dir, ['rev-parse', 'HEAD'])).trim();
  };
  await git(dir, ['init', '-q', '-b', 'main']);
  await git(dir, ['config', 'user.email', 'ci@example.test']);
  await git(dir, ['config', 'user.name', 'ci']);
  mkdirSync(join(dir, 'appsets'));
  mkdirSync(join(dir, 'platform'));
  writeFileSync(join(dir, 'appsets/web.yaml'), appset(repoUrl));
  writeFileSync(
    join(dir, 'platform/appprojects.yaml'),
    JSON.stringify({ apiVersion: 'argoproj.io/v1alpha1', kind: 'AppProject', metadata: { name: 'team-a', namespace: 'argocd' }, spec: { sourceRepos: ['*'] } }),
  );
  const base = await commit(['a', 'b', 'c', 'd'], 'base');
  await git(dir, ['rm', '-rq', 'apps']);
  const head = await commit(headApps, 'head');
  return { dir, base, head };
}

interface JobRun {
  readonly passed: boolean;
  readonly output: string;
  /** The report file the job left (the artifact). */
  readonly report: string;
  readonly log: string;
}

function shell(script: string, cwd: string, env: Record<string, string>): { status: number | null; output: string } {
  // Both runners run a script in bash with -e and -o pipefail.
  const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function runnerEnv(tools: string): Record<string, string> {
  return { PATH: `${tools}:/usr/local/bin:/usr/bin:/bin`, HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1' };
}

/** Runs the GitHub workflow's shell steps in order, with the pull request's context; `uses:` steps are the runner's. */
function runGithub(dir: string, base: string, head: string): JobRun {
  const log = mkdtempSync(join(tmpdir(), 'ci-log-'));
  const context: Record<string, string> = {
    'github.repository': 'org/platform',
    'github.token': 'token-1',
    'github.event.pull_request.number': '7',
    'github.event.pull_request.base.sha': base,
    'github.event.pull_request.head.sha': head,
  };
  const expand = (text: string): string =>
    text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expression: string) => {
      const value = context[expression];
      if (value === undefined) throw new Error(`the workflow uses \${{ ${expression} }}, which the test does not provide`);
      return value;
    });
  let output = '';
  for (const step of recipes().github.jobs.diff.steps) {
    if (step.run === undefined) continue;
    const env = { ...runnerEnv(fakeTools(log)), ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(String(v))])) };
    const result = shell(expand(step.run), dir, env);
    output += result.output;
    if (result.status !== 0) return { passed: false, output, report: readReport(dir), log };
  }
  return { passed: true, output, report: readReport(dir), log };
}

/** Runs the GitLab job's script with its variables (expanded from the predefined ones) in a merge request pipeline. */
function runGitlab(dir: string, base: string, head: string): JobRun {
  const log = mkdtempSync(join(tmpdir(), 'ci-log-'));
  const job = recipes().gitlab['appset-diff'];
  const predefined: Record<string, string> = {
    CI_PROJECT_URL: 'https://gitlab.example/org/platform',
    CI_API_V4_URL: 'https://gitlab.example/api/v4',
    CI_PROJECT_ID: '42',
    CI_MERGE_REQUEST_IID: '7',
    CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
    CI_COMMIT_SHA: head,
    APPSET_DIFF_TOKEN: 'token-2',
  };
  const variables = Object.fromEntries(
    Object.entries(job.variables).map(([k, v]) => [k, String(v).replace(/\$\{?([A-Z0-9_]+)\}?/g, (_, name: string) => predefined[name] ?? '')]),
  );
  const result = shell(job.script.join('\n'), dir, { ...runnerEnv(fakeTools(log)), ...predefined, ...variables });
  return { passed: result.status === 0, output: result.output, report: readReport(dir), log };
}

function readReport(dir: string): string {
  const file = join(dir, 'appset-diff.md');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

describe('docs/ci.md', () => {
  it('shows ci/appset-diff.sh exactly as it is, and both recipes parse as YAML and run it', () => {
    assert.ok(blocks(doc(), 'sh').includes(readFileSync(join(root, SCRIPT), 'utf8')), 'the "The script" block is ci/appset-diff.sh');
    const { github, gitlab } = recipes();
    const step = github.jobs.diff.steps.find((s) => s.run?.includes(SCRIPT));
    assert.ok(step, 'the GitHub workflow runs the script');
    assert.equal(step.env?.['APPSET_DIFF_POST'], 'github');
    assert.deepEqual(
      github.jobs.diff.steps.map((s) => s.uses ?? 'run'),
      ['actions/checkout@v4', 'actions/setup-node@v4', 'run', 'run'],
    );
    const job = gitlab['appset-diff'];
    assert.ok(
      job.script.some((line) => line.includes(SCRIPT)),
      'the GitLab job runs the script',
    );
    assert.equal(job.variables['APPSET_DIFF_POST'], 'gitlab');
    assert.deepEqual(job.artifacts.paths, ['appset-diff.md']);
    assert.ok(readdirSync(join(root, 'ci')).includes('appset-diff.sh'));
    assert.ok((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] }).files.includes('ci/'), 'the package ships ci/');
  });

  const runners = [
    ['GitHub Actions', 'https://github.com/org/platform.git', runGithub],
    ['GitLab CI', 'https://gitlab.example/org/platform.git', runGitlab],
  ] as const;
  for (const [name, repoUrl, run] of runners) {
    it(`${name}: a clean change passes, and the report of the change is posted`, async () => {
      const { dir, base, head } = await repository(repoUrl, ['a', 'b', 'c', 'd', 'e']);
      const job = run(dir, base, head);
      assert.ok(job.passed, job.output);
      assert.match(job.report, /web-e/);
      assert.match(job.report, /nothing refused/);
      assertPosted(name, job);
    });

    it(`${name}: a change the controller would refuse fails the job, and the refusal is posted`, async () => {
      // Three of four Applications deleted: more than --max-delete-share 0.5.
      const { dir, base, head } = await repository(repoUrl, ['a']);
      const job = run(dir, base, head);
      assert.equal(job.passed, false, job.output);
      assert.match(job.report, /\*\*Refused\*\* \(`DeleteApplicationError`\): refusing to delete 3 of 4 Applications/);
      assert.match(job.output, /the controller would refuse this change/);
      assertPosted(name, job);
    });
  }

  it('GitHub Actions: a base commit missing from the clone fails the job, and the error is the comment', async () => {
    const { dir, head } = await repository('https://github.com/org/platform.git', ['a', 'b']);
    const job = runGithub(dir, 'f'.repeat(40), head);
    assert.equal(job.passed, false);
    assert.match(job.report, /^### appset diff failed\n/);
    assert.match(job.report, /ffffffff/);
    assertPosted('GitHub Actions', job);
  });
});

/** The comment or note posted is the report, to the pull request the context names. */
function assertPosted(runner: string, job: JobRun): void {
  assert.notEqual(job.report, '');
  if (runner === 'GitHub Actions') {
    assert.equal(readFileSync(join(job.log, 'comment.md'), 'utf8'), job.report);
    const calls = readFileSync(join(job.log, 'gh.args'), 'utf8').trim().split('\n');
    assert.deepEqual(
      calls.map((c) => c.replace(/--body-file \S+/, '--body-file F')),
      ['pr comment 7 --body-file F --edit-last', 'pr comment 7 --body-file F'],
    );
  } else {
    assert.deepEqual(JSON.parse(readFileSync(join(job.log, 'note.json'), 'utf8')), { body: job.report });
    const call = readFileSync(join(job.log, 'curl.args'), 'utf8');
    assert.match(call, /PRIVATE-TOKEN: token-2/);
    assert.match(call, /https:\/\/gitlab\.example\/api\/v4\/projects\/42\/merge_requests\/7\/notes\n$/);
  }
}
