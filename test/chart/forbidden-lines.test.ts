import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forbiddenLines } from './forbidden-lines.js';

describe('forbiddenLines', () => {
  it('finds refusals and leaves a resource version of 403 alone', () => {
    const listed = '{"level":20,"informer":"/apis/argoproj.io/v1alpha1/applications","objects":60,"resourceVersion":"403","msg":"listed"}';
    const refused =
      '{"level":50,"err":{"message":"HTTP 403 Forbidden: applications.argoproj.io is forbidden: User \\"x\\" cannot create"},"msg":"apply failed"}';
    const status = '{"level":50,"err":{"statusCode":403},"msg":"write failed"}';
    assert.deepEqual(forbiddenLines([listed, refused, status]), [refused, status]);
  });
});
