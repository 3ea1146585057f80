import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sanitizeName } from '../../src/generators/normalize.js';

describe('sanitizeName (Argo CD SanitizeName)', () => {
  const cases: [string, string][] = [
    ['simple', 'simple'],
    ['Upper_Case', 'upper-case'],
    ['with space', 'with-space'],
    ['dots.are.kept', 'dots.are.kept'],
    ['--leading-and-trailing--', 'leading-and-trailing'],
    ['.hidden', 'hidden'],
    ['trailing.', 'trailing'],
    ['-.-mixed-.-', 'mixed'],
    ['ünïcödé', 'n-c-d'],
    ['emoji😀x', 'emoji-x'],
    ['a/b', 'a-b'],
    ['...', ''],
    ['', ''],
    ['x'.repeat(300), 'x'.repeat(253)],
    [`${'a'.repeat(252)}-b`, `${'a'.repeat(252)}`],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input.length > 40 ? `${input.slice(0, 20)}…(${input.length})` : input)} → ${JSON.stringify(expected.length > 40 ? `…(${expected.length})` : expected)}`, () => {
      assert.equal(sanitizeName(input), expected);
    });
  }
});
