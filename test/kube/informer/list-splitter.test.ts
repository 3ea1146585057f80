import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ListItemSplitter } from '../../../src/kube/informer/list-splitter.js';

/** Feeds `body` in the given pieces; the items as parsed and the list without them. */
function split(pieces: string[]): { items: unknown[]; envelope: Record<string, unknown> } {
  const items: unknown[] = [];
  const splitter = new ListItemSplitter((text) => items.push(JSON.parse(text)));
  for (const piece of pieces) splitter.push(piece);
  return { items, envelope: splitter.end() };
}

/** Every way of cutting `body` in two, and in single characters. */
function cuts(body: string): string[][] {
  const all = [[...body]];
  for (let at = 0; at <= body.length; at++) all.push([body.slice(0, at), body.slice(at)]);
  return all;
}

// Items whose strings hold every character that means something to the splitter, escaped quotes, runs of
// backslashes before a closing quote, non-ASCII text, nested arrays and objects.
const tricky = [
  { metadata: { name: 'a', annotations: { note: 'x{"}\\', brackets: '][}{', quote: '\\"' } }, spec: { list: [1, [2, { c: '[]' }], {}] } },
  { metadata: { name: 'b', labels: { 'ends-with-backslashes': '\\\\' } }, data: 'größe ✓ 日本' },
  {},
];

describe('ListItemSplitter', () => {
  it('splits a custom resource list (metadata last) however the body is cut', () => {
    const list = { apiVersion: 'argoproj.io/v1alpha1', items: tricky, kind: 'ApplicationList', metadata: { continue: 'tok', resourceVersion: '5' } };
    for (const pieces of cuts(JSON.stringify(list))) {
      const { items, envelope } = split(pieces);
      assert.deepEqual(items, tricky);
      assert.deepEqual(envelope, { ...list, items: [] });
    }
  });

  it('splits a typed list (metadata first) with whitespace between the tokens', () => {
    const list = { kind: 'SecretList', apiVersion: 'v1', metadata: { resourceVersion: '9', kinds: ['items'] }, items: tricky };
    for (const pieces of cuts(JSON.stringify(list, null, 1) + '\n')) {
      const { items, envelope } = split(pieces);
      assert.deepEqual(items, tricky);
      assert.deepEqual(envelope, { ...list, items: [] });
    }
  });

  it('reads an empty list, and one without an items key', () => {
    assert.deepEqual(split(['{"apiVersion":"v1","items":[],"kind":"L","metadata":{"resourceVersion":"3"}}']).items, []);
    const { items, envelope } = split(['{"kind":"L","metadata":', '{"resourceVersion":"3"}}']);
    assert.deepEqual(items, []);
    assert.deepEqual(envelope, { kind: 'L', metadata: { resourceVersion: '3' } });
  });

  it('only splits the top-level items array, not an items key nested in the head or in an item', () => {
    const inner = { items: [{ a: 1 }, { b: 2 }] };
    const list = { metadata: { items: [{ no: 1 }] }, items: [inner, inner] };
    assert.deepEqual(split([JSON.stringify(list)]).items, [inner, inner]);
  });

  it('counts the items it handed out', () => {
    const splitter = new ListItemSplitter(() => undefined);
    splitter.push(JSON.stringify({ items: tricky, metadata: {} }));
    assert.equal(splitter.count, tricky.length);
  });

  it('rejects bodies that are not a JSON list, naming the problem', () => {
    const rejects = (body: string, message: RegExp): void =>
      assert.throws(
        () => split([body]),
        (error: unknown) => error instanceof SyntaxError && message.test(error.message),
        body,
      );
    rejects('[{"a":1}]', /not a JSON object/);
    rejects('<html>proxy error</html>', /not a JSON object/);
    rejects('}', /not a JSON object/);
    rejects('{"items":[1,2]}', /item is not an object/);
    rejects('{"items":["x"]}', /item is not an object/);
    rejects('{"items":[[]]}', /item is not an object/);
    rejects('{"items":[{"a":1}', /ended in the middle/);
    rejects('{"items":[{"a":"open}]}', /ended in the middle/);
    rejects('', /Unexpected end|JSON/);
    // An item with broken JSON inside fails in JSON.parse, also a SyntaxError.
    rejects('{"items":[{"a":}]}', /JSON|Unexpected/);
  });
});
