import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { main } from '../../src/cli/main.js';
import { git } from '../../src/environment/local/git-fixtures.js';

const examples = fileURLToPath(new URL('../../../examples/', import.meta.url));
const MONOREPO = 'https://git.example.com/platform/monorepo.git';

async function render(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['render', ...args], { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

describe('appset render', () => {
  let local: string;
  before(async () => {
    // The examples name their monorepo by its remote URL; a local copy stands in for it.
    local = join(mkdtempSync(join(tmpdir(), 'render-')), 'monorepo');
    cpSync(join(examples, 'monorepo'), local, { recursive: true });
    await git(local, ['init', '-q']);
    await git(local, ['add', '-A']);
    await git(local, ['commit', '-q', '-m', 'monorepo']);
  });
  // projects.yaml holds the tenant's AppProject: offline, only `default` and the files' AppProjects exist.
  const files = ['platform-addons.yaml', 'environments.yaml', 'tenant-team-a.yaml', 'projects.yaml'].map((f) => join(examples, 'applicationsets', f));

  it('renders the examples from a local repository, sorted by namespace then name', async () => {
    const { code, out, err } = await render([...files, '--repo', `${MONOREPO}=${local}`]);
    assert.equal(code, 0, err);
    const apps = parseAllDocuments(out).map(
      (d) => d.toJS() as { metadata: { name: string; namespace: string }; spec: { source: { path: string }; destination: { namespace: string } } },
    );
    assert.deepEqual(
      apps.map((a) => `${a.metadata.namespace}/${a.metadata.name}`),
      [
        'argocd/addon-cert-manager',
        'argocd/addon-external-dns',
        'argocd/addon-ingress-nginx',
        'argocd/guestbook-dev',
        'argocd/guestbook-prod',
        'argocd/guestbook-staging',
        'team-a/team-a-backend-dev',
        'team-a/team-a-backend-staging',
        'team-a/team-a-frontend-dev',
        'team-a/team-a-frontend-staging',
        'team-a/team-a-worker-dev',
        'team-a/team-a-worker-staging',
      ],
    );
    const addon = apps.find((a) => a.metadata.name === 'addon-cert-manager');
    assert.equal(addon?.spec.source.path, 'platform/addons/cert-manager');
    assert.equal(apps.find((a) => a.metadata.name === 'team-a-worker-staging')?.spec.destination.namespace, 'team-a-staging');
  });

  it('prints one JSON array with -o json', async () => {
    const { code, out } = await render([files[1] ?? '', '--repo', `${MONOREPO}=${local}`, '-o', 'json']);
    assert.equal(code, 0);
    const apps = JSON.parse(out) as Array<{ metadata: { labels: { env: string } } }>;
    assert.deepEqual(
      apps.map((a) => a.metadata.labels.env),
      ['dev', 'prod', 'staging'],
    );
  });

  it('fails naming the ApplicationSet and prints no Application when a generator fails', async () => {
    const { code, out, err } = await render([...files]); // the remote URL is not reachable here
    assert.equal(code, 1);
    assert.equal(out, '');
    assert.match(err, /^appset render: ApplicationSet argocd\/platform-addons: /);
  });

  it('reads cluster Secrets for the clusters generator', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'render-clusters-'));
    writeFileSync(
      join(dir, 'clusters.yaml'),
      ['prod', 'staging']
        .map(
          (n) =>
            `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${n}\n  labels:\n    argocd.argoproj.io/secret-type: cluster\n    env: ${n}\nstringData:\n  name: ${n}\n  server: https://${n}.example\n`,
        )
        .join('---\n'),
    );
    writeFileSync(
      join(dir, 'appset.yaml'),
      `apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: per-cluster\n  namespace: argocd\nspec:\n  generators:\n    - clusters:\n        selector:\n          matchLabels:\n            env: prod\n  template:\n    metadata:\n      name: 'app-{{name}}'\n    spec:\n      project: default\n      source: {repoURL: 'https://git.example/x.git', path: app}\n      destination: {server: '{{server}}', namespace: app}\n`,
    );
    const { code, out, err } = await render([join(dir, 'appset.yaml'), '--clusters', join(dir, 'clusters.yaml')]);
    assert.equal(code, 0, err);
    const apps = parseAllDocuments(out).map((d) => d.toJS() as { metadata: { name: string }; spec: { destination: { server: string } } });
    assert.deepEqual(
      apps.map((a) => [a.metadata.name, a.spec.destination.server]),
      [['app-prod', 'https://prod.example']],
    );
  });

  it("refuses an AppProject that is neither default nor in the files, in Argo CD's words", async () => {
    const tenant = join(examples, 'applicationsets', 'tenant-team-a.yaml');
    const refused = await render([tenant, '--repo', `${MONOREPO}=${local}`]);
    assert.equal(refused.code, 1);
    assert.equal(refused.out, '');
    assert.match(
      refused.err,
      /^appset render: ApplicationSet team-a\/team-a-apps: 6 of 6 generated Applications are invalid; .*Application team-a-backend-dev: application references project team-a which does not exist; /,
    );
    const withProject = await render([tenant, join(examples, 'applicationsets', 'projects.yaml'), '--repo', `${MONOREPO}=${local}`]);
    assert.equal(withProject.code, 0, withProject.err);
  });

  it('refuses a destination that is neither a --clusters Secret nor the local cluster, naming the Application', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'render-destinations-'));
    const destinations = ['{server: https://kubernetes.default.svc}', '{name: in-cluster}', '{name: prod}', '{server: https://nowhere.example}'];
    writeFileSync(
      join(dir, 'clusters.yaml'),
      `apiVersion: v1\nkind: Secret\nmetadata:\n  name: prod\n  labels:\n    argocd.argoproj.io/secret-type: cluster\nstringData:\n  name: prod\n  server: https://prod.example\n`,
    );
    const appset = (list: string[]) =>
      `apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: dests\nspec:\n  goTemplate: true\n  generators:\n    - list:\n        elements:\n${list.map((d, i) => `          - {i: '${i}', d: ${d}}\n`).join('')}  template:\n    metadata:\n      name: 'app-{{.i}}'\n    spec:\n      project: default\n      source: {repoURL: 'https://git.example/x.git', path: app}\n      destination: {}\n  templatePatch: |\n    spec:\n      destination: {{ toJson .d }}\n`;
    writeFileSync(join(dir, 'valid.yaml'), appset(destinations.slice(0, 3)));
    writeFileSync(join(dir, 'invalid.yaml'), appset(destinations));
    const valid = await render([join(dir, 'valid.yaml'), '--clusters', join(dir, 'clusters.yaml')]);
    assert.equal(valid.code, 0, valid.err);
    const refused = await render([join(dir, 'invalid.yaml'), '--clusters', join(dir, 'clusters.yaml')]);
    assert.equal(refused.code, 1);
    assert.equal(refused.out, '');
    assert.equal(
      refused.err,
      'appset render: ApplicationSet argocd/dests: 1 of 4 generated Applications is invalid; no Application of this ApplicationSet is created, updated or deleted until it is fixed: ' +
        'Application app-3: application destination spec is invalid: error getting cluster by server "https://nowhere.example": rpc error: code = NotFound desc = cluster "https://nowhere.example" not found\n',
    );
    const withoutClusters = await render([join(dir, 'valid.yaml')]);
    assert.match(withoutClusters.err, /Application app-2: application destination spec is invalid: there are no clusters with this name: prod/);
  });

  it('refuses a YAML alias bomb with one line naming the file, not a stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'render-bomb-'));
    // Each level doubles the one before: expanding the last alias would build 2^20 strings.
    const levels = Array.from({ length: 20 }, (_, i) => `l${i + 1}: &l${i + 1} [*l${i}, *l${i}]`);
    const file = join(dir, 'bomb.yaml');
    writeFileSync(file, ['a: &l0 [x, y]', ...levels, 'kind: ApplicationSet', 'boom: *l20', ''].join('\n'));
    const { code, out, err } = await render([file]);
    assert.equal(code, 1);
    assert.equal(out, '');
    assert.match(err, new RegExp(`^appset render: ${file.replaceAll('/', '\\/')}: document 1 cannot be read: .*alias`, 'i'));
    assert.equal(err.trim().split('\n').length, 1, err);
  });

  it('names a file that does not exist, without a stack trace', async () => {
    const { code, err } = await render(['/no/such/appset.yaml']);
    assert.equal(code, 1);
    assert.match(err, /^appset render: .*no such file.*\/no\/such\/appset\.yaml/);
    assert.doesNotMatch(err, /^\s+at /m);
  });

  it('refuses bad usage with exit code 2', async () => {
    assert.equal((await render([])).code, 2);
    assert.equal((await render([files[0] ?? '', '-o', 'xml'])).code, 2);
    assert.equal((await render([files[0] ?? '', '--repo', 'no-equals-sign'])).code, 2);
  });
});

describe('appset render --check', () => {
  async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await main(args, { out: (t) => void (out += t), err: (t) => void (err += t) });
    return { code, out, err };
  }
  const appset = (spec: Record<string, unknown>): string =>
    JSON.stringify({ apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', metadata: { name: 'web', namespace: 'argocd' }, spec });
  const template = {
    metadata: { name: 'web-{{env}}' },
    spec: {
      project: 'default',
      source: { repoURL: 'https://git.example/apps.git', path: 'web' },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'web' },
    },
  };

  it('prints nothing and exits 0 when the files pass, like validate', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'render-check-')), 'ok.yaml');
    writeFileSync(file, appset({ generators: [{ list: { elements: [{ env: 'dev' }] } }], template }));
    assert.deepEqual(await run(['render', '--check', file]), { code: 0, out: '', err: '' });
  });

  it("prints every problem and no Application, exit 1, exactly as validate does: the schema, the controller's checks, AppProjects", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'render-check-'));
    const files = {
      schema: appset({ generators: [{ list: { elements: [{ env: 'dev' }] } }], template, foo: 1 }),
      names: appset({ generators: [{ list: { elements: [{ env: 'Prod' }] } }], template }),
      project: JSON.stringify({ apiVersion: 'argoproj.io/v1alpha1', kind: 'AppProject', metadata: { name: 'p' }, spec: { sourceRepos: '*' } }),
    };
    for (const [name, text] of Object.entries(files)) {
      const file = join(dir, `${name}.yaml`);
      writeFileSync(file, text);
      const check = await run(['render', '--check', file]);
      assert.equal(check.code, 1, `${name}: ${check.err}`);
      assert.equal(check.out, '');
      assert.deepEqual(check, await run(['validate', file]), name);
    }
    assert.match((await run(['render', '--check', join(dir, 'schema.yaml')])).err, /^ApplicationSet argocd\/web: InvalidManifest: .*unknown field "spec.foo"/);
    assert.match((await run(['render', '--check', join(dir, 'names.yaml')])).err, /^ApplicationSet argocd\/web: .*web-Prod/);
    assert.match(
      (await run(['render', '--check', join(dir, 'project.yaml')])).err,
      /^AppProject argocd\/p: InvalidManifest: .*spec\.sourceRepos: Invalid value: "string"/,
    );
  });

  it('takes the flags of validate only with --check, and no -o with it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'render-check-')), 'ok.yaml');
    writeFileSync(file, appset({ generators: [{ list: { elements: [{ env: 'dev' }] } }], template }));
    const projects = await run(['render', file, '--projects', file]);
    assert.equal(projects.code, 2);
    assert.match(projects.err, /--projects only with --check/);
    assert.equal((await run(['render', file, '--max-delete-share', '0.2'])).code, 2);
    assert.equal((await run(['render', '--check', file, '-o', 'json'])).code, 2);
    assert.match((await run(['render', '--help'])).out, /--check/);
  });
});
