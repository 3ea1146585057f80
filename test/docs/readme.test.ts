import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { controllerSettings } from '../../src/config/controller-settings.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const readme = (): string => readFileSync(`${root}README.md`, 'utf8');

/** The Markdown section under `heading`, up to the next heading of the same level. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `README has a "${heading}" section`);
  const next = text.indexOf('\n## ', start + heading.length + 2);
  return text.slice(start, next < 0 ? undefined : next);
}

describe('README', () => {
  it('starts with the two commands for a fresh machine, unchanged', () => {
    const lines = readme().split('\n').slice(0, 6);
    assert.deepEqual(lines, [
      '# appset-controller',
      '',
      '```sh',
      'npm ci && npx appset local   # a local cluster, the example monorepo and two controller replicas; Ctrl-C stops and cleans up',
      'npm ci && npm test           # the whole test suite, against a real kube-apiserver, etcd, Redis and Git',
      '```',
    ]);
  });

  it('lists every controller flag and its environment variable in the configuration reference', () => {
    const table = section(readme(), '## Configuration reference');
    for (const setting of Object.values(controllerSettings)) {
      const row = table.split('\n').find((line) => line.startsWith(`| \`--${setting.flag}\` |`));
      assert.ok(row, `--${setting.flag} has a row`);
      assert.ok(row.includes(`\`${setting.env}\``), `--${setting.flag}'s row names ${setting.env}`);
    }
  });

  it('has the architecture picture, the Argo CD comparison and links that resolve', () => {
    const text = readme();
    assert.match(section(text, '## Architecture'), /kube-apiserver[\s\S]*Redis \(BullMQ\)[\s\S]*server-side apply/);
    const comparison = section(text, "## Compared with Argo CD's ApplicationSet controller");
    for (const part of ['**The same:**', '**What differs:**', '**Migrating:**']) assert.ok(comparison.includes(part), `comparison has ${part}`);
    for (const link of ['docs/benchmarks.md', 'docs/security.md']) assert.ok(text.includes(`](${link})`), `README links ${link}`);
    for (const [, target] of text.matchAll(/\]\(((?:docs|bench|examples)\/[^)#]+)\)/g)) assert.ok(existsSync(`${root}${target}`), `${target} exists`);
  });
});
