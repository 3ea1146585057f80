import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const distSrc = fileURLToPath(new URL('../../src/', import.meta.url));

/** Every .js file below `dir`. */
function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => join(e.parentPath, e.name));
}

/** A static or dynamic import, an export-from or a require of the package (tsc erases type-only imports). */
const LOAD = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]@kubernetes\/client-node(?:\/[^'"]*)?['"]/m;

describe('dist/src without @kubernetes/client-node', () => {
  it('the guard recognises each way of loading the package', () => {
    for (const code of [
      "import { KubeConfig } from '@kubernetes/client-node';",
      "await import('@kubernetes/client-node')",
      "require('@kubernetes/client-node/dist/config')",
      "import '@kubernetes/client-node';",
      "export * from '@kubernetes/client-node';",
    ]) {
      assert.match(code, LOAD, code);
    }
    assert.doesNotMatch('// the order @kubernetes/client-node uses', LOAD);
  });

  it('no runtime module loads it: a replica pays about 70 MiB of RSS for loading it', () => {
    const files = jsFiles(distSrc);
    assert.ok(files.length > 100, `found only ${files.length} files under ${distSrc}: is dist/ built?`);
    const loading = files.filter((file) => LOAD.test(readFileSync(file, 'utf8'))).map((file) => relative(distSrc, file));
    assert.deepEqual(loading, []);
  });
});
