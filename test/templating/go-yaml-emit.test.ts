// toYaml must write what Argo CD's toYaml writes: sigs.k8s.io/yaml v1.6.0 Marshal, that is json.Marshal, then the
// JSON text read back and written out again by go-yaml v2 (go.yaml.in/yaml/v2 v2.4.2), without the final line break.
//
// The expectations in go-yaml-emit.cases.json come from a small Go program kept outside this repository (Go 1.25.5
// with those two modules): it reads each case's `input` JSON text, integer literals within int64 as Go ints and
// other numbers as float64, calls sigs.k8s.io/yaml's Marshal and trims one trailing "\n" as Argo CD's toYAML does;
// `error` is Marshal's error where it fails. The same program was run against this implementation on about 17,000
// generated values (random strings, numbers, nesting, keys), all equal; these cases keep one or more per rule.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fromYaml, fromYamlArray, toYaml } from '../../src/templating/functions-data.js';
import { goYamlMarshal } from '../../src/templating/go-yaml-emit.js';
import { MissingValue, nilSlice } from '../../src/templating/plain-values.js';
import { TemplateProblem } from '../../src/templating/template-problem.js';

interface Case {
  rule: string;
  input: string;
  yaml?: string;
  error?: string;
}

// Compiled to dist/test/templating/: the fixture stays in the source tree.
const fixture = fileURLToPath(new URL('../../../test/templating/go-yaml-emit.cases.json', import.meta.url));
const cases = JSON.parse(readFileSync(fixture, 'utf8')) as Case[];

/** An integer literal beyond 2^53 but within int64 stands for a Go int (a bigint here), as in the Go program. */
function parseInput(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) => {
    const source = context?.source ?? '';
    if (typeof value !== 'number' || !/^-?\d+$/.test(source) || Number.isSafeInteger(value)) return value;
    const n = BigInt(source);
    return n >= -(2n ** 63n) && n < 2n ** 63n ? n : value;
  });
}

describe('toYaml writes what go-yaml v2 writes (Argo CD toYaml)', () => {
  for (const c of cases) {
    it(c.rule, () => {
      const value = parseInput(c.input);
      if (c.error !== undefined) {
        const expected = c.error.replace(/line \d+: /, '');
        assert.throws(
          () => toYaml(value),
          (error: unknown) => error instanceof TemplateProblem && error.message.endsWith(expected),
        );
      } else assert.equal(toYaml(value), c.yaml);
    });
  }

  it('ends the document with one line break, which toYaml trims', () => {
    assert.equal(goYamlMarshal({ a: 1 }), 'a: 1\n');
    assert.equal(goYamlMarshal('a\n\n'), '|+\n  a\n\n');
    assert.equal(toYaml('a\n\n'), '|+\n  a\n');
  });

  it('fails where json.Marshal fails', () => {
    for (const value of [Number.NaN, [Infinity], { a: -Infinity }]) {
      assert.throws(() => toYaml(value), /toYaml: error marshaling into JSON: json: unsupported value: (NaN|\+Inf|-Inf)/);
    }
  });

  it('writes missing values and nil lists as null', () => {
    assert.equal(toYaml({ a: new MissingValue('.x'), b: nilSlice(), c: undefined }), 'a: null\nb: null\nc: null');
  });
});

describe('fromYaml and fromYamlArray read toYaml output back', () => {
  // Cases that do not come back unchanged. As in Argo CD: a NEL folds; JavaScript numbers lose digits past 2^53
  // and -0 becomes 0; go-yaml reads a `|2+` block of line breaks only back one break short. Differences of this
  // project's fromYaml from go-yaml's reader, not of toYaml: it reads `1e999` and `._5` as numbers where go-yaml
  // keeps strings, and it does not take U+2028/U+2029 as line breaks inside quoted scalars.
  const changed = /NEL|integral floats|Go ints|line breaks only|strconv cannot parse|LS/;
  for (const c of cases.filter((k) => k.error === undefined && !changed.test(k.rule))) {
    const value = parseInput(c.input);
    if (typeof value !== 'object' || value === null) continue;
    it(c.rule, () => {
      if (Array.isArray(value)) assert.deepEqual(fromYamlArray(toYaml(value)), value);
      else assert.deepEqual(fromYaml(toYaml(value)), value);
    });
  }
});
