import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listGenerator } from '../../src/generators/list.js';
import { GeneratorSpecError } from '../../src/generators/spec-reading.js';
import { testContext } from './test-context.js';

describe('list generator', () => {
  const ctx = testContext();
  it('yields one param set per element, nested keys as nested params', async () => {
    const out = await listGenerator.generate(
      { elements: [{ cluster: 'a', url: 'https://a', extra: { tier: 'gold', n: 3, on: true } }, { cluster: 'b' }] },
      ctx,
    );
    assert.deepEqual(out, [{ cluster: 'a', url: 'https://a', extra: { tier: 'gold', n: 3, on: true } }, { cluster: 'b' }]);
  });
  it('appends elementsYaml after elements', async () => {
    const out = await listGenerator.generate({ elements: [{ a: 1 }], elementsYaml: '- b: 2\n  nested:\n    c: x\n- {"d": "json"}\n' }, ctx);
    assert.deepEqual(out, [{ a: 1 }, { b: 2, nested: { c: 'x' } }, { d: 'json' }]);
  });
  it('empty list and empty elementsYaml give no param sets', async () => {
    assert.deepEqual(await listGenerator.generate({ elements: [], elementsYaml: '' }, ctx), []);
  });
  const bad: [string, unknown, RegExp][] = [
    ['element that is not an object', { elements: ['x'] }, /list\.elements\[0\]/],
    ['elements that is not a list', { elements: { a: 1 } }, /list\.elements: must be a list/],
    ['elementsYaml that is not YAML', { elementsYaml: 'a: [' }, /list\.elementsYaml: is not valid YAML/],
    ['elementsYaml that is not a list', { elementsYaml: 'a: 1' }, /must be a YAML list/],
    ['elementsYaml element that is a scalar', { elementsYaml: '- 1' }, /list\.elementsYaml\[0\]/],
  ];
  for (const [name, spec, message] of bad) {
    it(`refuses ${name}`, async () => {
      await assert.rejects(listGenerator.generate(spec, ctx), (e: unknown) => e instanceof GeneratorSpecError && message.test(e.message));
    });
  }
  it('never requeues (a list only changes with the ApplicationSet)', () => {
    assert.equal('requeueAfterMs' in listGenerator, false);
  });
});
