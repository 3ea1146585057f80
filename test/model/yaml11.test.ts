import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseYaml11 } from '../../src/model/yaml11.js';

// Expected values are what sigs.k8s.io/yaml v1.6.0 (go-yaml v2.4.2) Unmarshal gives, printed as JSON by a small Go
// program run on this machine: the reader Argo CD and kubectl use for manifests, templatePatch and git files.
const cases: Array<[string, unknown]> = [
  ['a: .', { a: '.' }],
  ['a: .5', { a: 0.5 }],
  ['a: 1.', { a: 1 }],
  ['a: +.', { a: '+.' }],
  ['a: 1e3', { a: 1000 }],
  ['a: 0b101', { a: 5 }],
  ['a: 0o17', { a: 15 }],
  ['a: +12', { a: 12 }],
  ['a: 1,000', { a: '1,000' }],
  ['a: 1:30', { a: '1:30' }],
  ['a: 0.', { a: 0 }],
  ['a: 685_230.15', { a: 685230.15 }],
  ['a: 0x_1F', { a: 31 }],
  ['a: 0755', { a: 493 }],
  ['a: 08', { a: 8 }],
  ['a: 1_000', { a: 1000 }],
  ['a: -0x1F', { a: -31 }],
  ['a: 2001-12-14', { a: '2001-12-14' }],
  ['a: 2001-12-14 21:59:43.10 -5', { a: '2001-12-14 21:59:43.10 -5' }],
  ['a: y', { a: true }],
  ['a: Yes', { a: true }],
  ['a: yEs', { a: 'yEs' }],
  ['a: ~', { a: null }],
  ['a: 99999999999999999999', { a: 1e20 }],
  ['a: 1e400', { a: '1e400' }],
  ['a: -foo', { a: '-foo' }],
  ['a: 0', { a: 0 }],
  ['a: 0x', { a: '0x' }],
  ['a: +0b11', { a: 3 }],
  ['a: 1__0', { a: 10 }],
  ['a: _1', { a: '_1' }],
  ['on: 1', { true: 1 }],
  ['1.5: x', { '1.5': 'x' }],
];

describe('YAML 1.1 as go-yaml v2 reads it', () => {
  for (const [text, expected] of cases) it(JSON.stringify(text), () => assert.deepEqual(parseYaml11(text), expected));
});
