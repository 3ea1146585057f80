import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { createControllerMetrics } from '../../src/server/metrics.js';

describe('controller metrics', () => {
  it("exposes Argo CD's ApplicationSet metrics from the cache at scrape time", async () => {
    const registry = new Registry();
    const metrics = createControllerMetrics(registry);
    let summaries = [{ namespace: 'team-a', name: 'guestbook', resourceUpdateStatus: 'ApplicationSetUpToDate', ownedApplications: 12 }];
    metrics.sources.applicationSets = () => summaries;
    metrics.sources.queue = () => ({ depth: 4 });
    metrics.reconcileSeconds.observe({ namespace: 'team-a', name: 'guestbook' }, 0.2);
    let text = await registry.metrics();
    assert.match(text, /^argocd_appset_info\{namespace="team-a",name="guestbook",resource_update_status="ApplicationSetUpToDate"\} 1$/m);
    assert.match(text, /^argocd_appset_owned_applications\{namespace="team-a",name="guestbook"\} 12$/m);
    assert.match(text, /^argocd_appset_reconcile_bucket\{le="0.25",namespace="team-a",name="guestbook"\} 1$/m);
    assert.match(text, /^appset_queue_depth 4$/m);
    summaries = [];
    text = await registry.metrics();
    assert.doesNotMatch(text, /guestbook",resource_update_status/, 'a deleted ApplicationSet leaves the info metric');
  });

  it('drains queue latency samples into the add-to-start histogram and turns cumulative retries into a counter', async () => {
    const registry = new Registry();
    const metrics = createControllerMetrics(registry);
    let samples = [2, 400];
    let retries = 3;
    metrics.sources.queueLatencySamplesMs = () => {
      const taken = samples;
      samples = [];
      return taken;
    };
    metrics.sources.queueRetries = () => retries;
    metrics.sources.queue = () => Promise.resolve({ depth: 7 });
    let text = await registry.metrics();
    assert.match(text, /^appset_queue_add_to_start_seconds_count 2$/m);
    assert.match(text, /^appset_queue_add_to_start_seconds_bucket\{le="0.005"\} 1$/m);
    assert.match(text, /^appset_queue_retries_total 3$/m);
    assert.match(text, /^appset_queue_depth 7$/m);
    samples = [10];
    retries = 5;
    text = await registry.metrics();
    assert.match(text, /^appset_queue_add_to_start_seconds_count 3$/m, 'samples are counted once');
    assert.match(text, /^appset_queue_retries_total 5$/m);
  });

  it("turns the render memo's cumulative lookups into a counter by result, and shows its size", async () => {
    const registry = new Registry();
    const metrics = createControllerMetrics(registry);
    let figures = { hits: 4, misses: 10, remembered: 10 };
    metrics.sources.renderMemo = () => figures;
    let text = await registry.metrics();
    assert.match(text, /^appset_render_memo_lookups_total\{result="hit"\} 4$/m);
    assert.match(text, /^appset_render_memo_lookups_total\{result="miss"\} 10$/m);
    assert.match(text, /^appset_render_memo_entries 10$/m);
    figures = { hits: 14, misses: 11, remembered: 11 };
    text = await registry.metrics();
    assert.match(text, /^appset_render_memo_lookups_total\{result="hit"\} 14$/m, 'each lookup is counted once');
    assert.match(text, /^appset_render_memo_lookups_total\{result="miss"\} 11$/m);
  });

  it('shows how many closing statuses wait for the Application writes, as they are now', async () => {
    const registry = new Registry();
    const metrics = createControllerMetrics(registry);
    let waiting = 3;
    metrics.sources.statusesWaiting = () => waiting;
    assert.match(await registry.metrics(), /^appset_status_writes_waiting 3$/m);
    waiting = 0;
    assert.match(await registry.metrics(), /^appset_status_writes_waiting 0$/m);
  });
});
