// Reading a list page's continue token from the raw body, before parsing it, in both layouts the API
// server writes; anything else must be reported as unknown rather than guessed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseListPage, peekContinue } from '../../../src/kube/informer/list-page.js';

const item = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'a', namespace: 'ns', resourceVersion: '5', continue: 'not-the-list-token' } };

describe('peekContinue', () => {
  it('reads the token of a typed list, whose metadata comes first', () => {
    const text = JSON.stringify({ kind: 'SecretList', apiVersion: 'v1', metadata: { resourceVersion: '9', continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ', remainingItemCount: 3 }, items: [item] });
    assert.equal(peekContinue(text), 'eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ');
  });

  it('reads the token of a custom resource list, whose metadata comes last, and ignores a trailing newline', () => {
    const text = JSON.stringify({ apiVersion: 'argoproj.io/v1alpha1', items: [item], kind: 'ApplicationList', metadata: { continue: 'tok', resourceVersion: '9' } }) + '\n';
    assert.equal(peekContinue(text), 'tok');
  });

  it('says "" for a last page, with an empty or absent token', () => {
    assert.equal(peekContinue(JSON.stringify({ apiVersion: 'v1', items: [item], kind: 'L', metadata: { continue: '', resourceVersion: '9' } })), '');
    assert.equal(peekContinue(JSON.stringify({ kind: 'SecretList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items: [item] })), '');
  });

  it('says undefined for layouts it does not know, never reading an item\'s metadata as the list\'s', () => {
    // items last, list metadata in the middle: the tail is an item's, so nothing may be read there
    assert.equal(peekContinue(JSON.stringify({ apiVersion: 'v1', kind: 'L', metadata: { continue: 'x' }, items: [item] })), undefined);
    assert.equal(peekContinue(JSON.stringify({ items: [], metadata: { continue: { nested: true } } })), undefined);
    assert.equal(peekContinue(JSON.stringify({ items: [], metadata: { continue: 7 } })), undefined);
    assert.equal(peekContinue('{"items":[],"metadata":{"continue":"unterminated}}'), undefined);
    assert.equal(peekContinue('<html>proxy error</html>'), undefined);
    assert.equal(peekContinue(''), undefined);
  });
});

describe('parseListPage', () => {
  it('parses a page and names the collection when the body is not JSON', () => {
    assert.equal(parseListPage<{ a: number }>('{"items":[{"a":1}]}', '/p').items?.[0]?.a, 1);
    assert.throws(() => parseListPage('<html>', '/apis/x/v1/things'), /GET \/apis\/x\/v1\/things: the server sent a body that is not JSON: <html>/);
  });
});
