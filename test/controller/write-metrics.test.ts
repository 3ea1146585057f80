import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Counter, Registry } from 'prom-client';
import { countApplicationWrites } from '../../src/controller/write/write-metrics.js';

describe('Application write metrics', () => {
  it('counts each reconcile’s writes by operation, successes and failures apart', async () => {
    const registry = new Registry();
    const counter = new Counter({ name: 'writes_total', help: 'test', labelNames: ['operation', 'result'], registers: [registry] });
    const observe = countApplicationWrites(counter);
    observe({ created: ['a', 'b'], updated: ['c'], deleted: [], failures: [{ name: 'd', operation: 'delete', error: new Error('409') }] });
    observe({ created: ['e'], updated: [], deleted: ['f'], failures: [{ name: 'g', operation: 'create', error: new Error('403') }] });
    const values = (await counter.get()).values.map((v) => `${String(v.labels.operation)}/${String(v.labels.result)}=${v.value}`).sort();
    assert.deepEqual(values, ['create/error=1', 'create/success=3', 'delete/error=1', 'delete/success=1', 'update/success=1']);
  });
});
