import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GitError } from '../../src/git/git-error.js';
import { parseParamsFile } from '../../src/generators/file-content.js';

const where = { repoURL: 'https://git.example/r', revision: 'c', path: 'config.json' };
const parse = (text: string) => parseParamsFile(Buffer.from(text), where);

describe('deeply nested parameter files', () => {
  it('refuses 5,000 levels of JSON before parsing (the YAML parser ran out of memory on it)', () => {
    const text = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    assert.throws(
      () => parse(text),
      (e: unknown) => e instanceof GitError && e.kind === 'malformed' && /more than 100 levels deep/.test(e.message),
    );
  });
  it('refuses deep block-style YAML nesting after parsing', () => {
    const text = Array.from({ length: 150 }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ' 1\n';
    assert.throws(
      () => parse(text),
      (e: unknown) => e instanceof GitError && /nested deeper than 100 levels/.test(e.message),
    );
  });
  it('accepts ordinary nesting', () => {
    const text = '{"a":'.repeat(50) + '1' + '}'.repeat(50);
    assert.equal(parse(text).length, 1);
  });
});
