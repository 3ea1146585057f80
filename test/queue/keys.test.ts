import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertValidKey, encodeKey, MAX_KEY_LENGTH } from '../../src/queue/keys.js';

describe('queue keys', () => {
  it('encodes without BullMQ separators or Cluster hash-tag braces', () => {
    for (const key of ['ns:a/b:c', 'ten{ant}/x', 'bull:q:1', 'ns/näme']) assert.doesNotMatch(encodeKey(key), /[:{}]/);
  });

  it('keeps distinct keys distinct, including already-encoded look-alikes', () => {
    const keys = ['a/b:c', 'a/b%3Ac', 'a%2Fb:c', 'a/b%253Ac'];
    assert.equal(new Set(keys.map(encodeKey)).size, keys.length);
  });

  it('rejects empty, overlong, non-string and control-character keys with the reason', () => {
    assert.throws(() => assertValidKey(''), /must not be empty/);
    assert.throws(() => assertValidKey('x'.repeat(MAX_KEY_LENGTH + 1)), /at most 1024/);
    assert.throws(() => assertValidKey(undefined), /must be a string, got undefined/);
    assert.throws(() => assertValidKey('ns/a\u0000'), /control character/);
    assert.doesNotThrow(() => assertValidKey('kube-system/my-appset'));
  });
});
