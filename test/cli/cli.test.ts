import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { commands, main, USAGE_EXIT } from '../../src/cli/main.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const builtEntry = join(repoRoot, 'dist', 'src', 'cli', 'main.js');

async function runMain(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

describe('appset CLI', () => {
  it('lists every subcommand in --help', async () => {
    const { code, out } = await runMain(['--help']);
    assert.equal(code, 0);
    for (const name of ['controller', 'render', 'local']) assert.match(out, new RegExp(`^  ${name}\\s+\\S`, 'm'));
  });

  for (const name of ['controller', 'render', 'local']) {
    it(`prints help for "${name} --help" and exits 0`, async () => {
      const { code, out, err } = await runMain([name, '--help']);
      assert.equal(code, 0, err);
      assert.match(out, new RegExp(`^Usage: appset ${name}\\b`));
      const command = commands.find((c) => c.name === name);
      assert.ok(command);
      for (const option of Object.keys(command.options)) assert.ok(out.includes(`--${option}`), `--${option} missing from help`);
    });
  }

  it('refuses an unknown command and an unknown flag with the usage exit code', async () => {
    assert.equal((await runMain(['deploy'])).code, USAGE_EXIT);
    const bad = await runMain(['render', '--no-such-flag']);
    assert.equal(bad.code, USAGE_EXIT);
    assert.match(bad.err, /no-such-flag/);
  });

  it('loads neither client-node nor BullMQ for --help and render (they cost most of a second)', async () => {
    // A resolve hook records every module the process loads; the CLI must leave the heavy ones alone.
    const hook = [
      "import { registerHooks } from 'node:module';",
      'const seen = new Set();',
      'registerHooks({ resolve(specifier, context, next) { const found = next(specifier, context); seen.add(found.url); return found; } });',
      "process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify([...seen]) + '\\n'));",
    ].join('\n');
    const loaded = async (args: string[]): Promise<string[]> => {
      const child = await promisify(execFile)(
        process.execPath,
        ['--import', `data:text/javascript,${encodeURIComponent(hook)}`, join(repoRoot, 'bin', 'appset.js'), ...args],
        { cwd: repoRoot },
      ).catch((error: { stdout: string; stderr: string }) => error);
      const line = child.stderr.split('\n').find((l) => l.startsWith('LOADED '));
      assert.ok(line, child.stderr);
      return JSON.parse(line.slice('LOADED '.length)) as string[];
    };
    const examples = join(repoRoot, 'examples', 'applicationsets');
    for (const args of [['--help'], ['controller', '--help'], ['render', join(examples, 'projects.yaml')]]) {
      const urls = await loaded(args);
      assert.ok(
        urls.some((u) => u.includes('/dist/src/cli/main.js')),
        `the hook saw nothing for ${args.join(' ')}`,
      );
      for (const heavy of ['@kubernetes/client-node', 'bullmq', 'ioredis']) {
        assert.ok(!urls.some((u) => u.includes(`/node_modules/${heavy}/`)), `appset ${args.join(' ')} loaded ${heavy}`);
      }
    }
  });

  it('runs as "npx appset --help" from the repository root, with an empty npm cache, without rebuilding dist/', async () => {
    // A fresh machine has no npx cache entry for this package, so npx installs the folder and runs its
    // `prepare` script; that must not rebuild (and so briefly delete) the dist/ other processes are using.
    const cache = mkdtempSync(join(tmpdir(), 'npm-cache-'));
    try {
      const before = statSync(builtEntry).mtimeMs;
      const { stdout } = await promisify(execFile)('npx', ['--no-install', 'appset', 'local', '--help'], {
        cwd: repoRoot,
        env: { ...process.env, npm_config_cache: cache },
      });
      assert.match(stdout, /^Usage: appset local/);
      assert.equal(statSync(builtEntry).mtimeMs, before, 'npx rebuilt dist/');
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
