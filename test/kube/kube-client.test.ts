import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pathSegment } from '../../src/kube/transport/request-url.js';

describe('pathSegment', () => {
  it('escapes separators, so a name can never leave its path', () => {
    assert.equal(pathSegment('a/../../secrets'), 'a%2F..%2F..%2Fsecrets');
    assert.equal(pathSegment('x?watch=1#y'), 'x%3Fwatch%3D1%23y');
    assert.equal(pathSegment('guestbook-dev'), 'guestbook-dev');
  });

  it('refuses segments that are path steps themselves', () => {
    for (const step of ['', '.', '..']) assert.throws(() => pathSegment(step), /not a valid path segment/);
  });
});
