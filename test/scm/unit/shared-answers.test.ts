import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SharedAnswers } from '../../../src/scm/shared-answers.js';

/** A load whose settling the test controls, counting how often it started. */
function controlledLoads<T>() {
  const pending: { resolve: (value: T) => void; reject: (error: Error) => void }[] = [];
  return {
    get started(): number {
      return pending.length;
    },
    load: (): Promise<T> => new Promise<T>((resolve, reject) => pending.push({ resolve, reject })),
    resolve: (index: number, value: T) => pending[index]?.resolve(value),
    reject: (index: number, error: Error) => pending[index]?.reject(error),
  };
}

/** Resolves once pending callbacks have run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A clock the test moves. */
function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('shared answers', () => {
  it('gives concurrent callers of one question a single load', async () => {
    const answers = new SharedAnswers(() => Promise.resolve(0), { reuseMs: 10_000 });
    const loads = controlledLoads<string>();
    const callers = [1, 2, 3, 4, 5].map(() => answers.get('q', 'k', loads.load));
    await settle();
    assert.equal(loads.started, 1);
    loads.resolve(0, 'listing');
    assert.deepEqual(await Promise.all(callers), ['listing', 'listing', 'listing', 'listing', 'listing']);
  });

  it('keeps other questions apart', async () => {
    const answers = new SharedAnswers(() => Promise.resolve(0), { reuseMs: 10_000 });
    let loads = 0;
    const a = await answers.get('a', 'k', () => Promise.resolve(`a${++loads}`));
    const b = await answers.get('b', 'k', () => Promise.resolve(`b${++loads}`));
    assert.deepEqual([a, b], ['a1', 'b2']);
  });

  it('reuses a finished answer within reuseMs of when its load began, and loads again after', async () => {
    const time = clock();
    const answers = new SharedAnswers(() => Promise.resolve(7), { reuseMs: 1000, now: time.now });
    let loads = 0;
    const load = (): Promise<number> => Promise.resolve(++loads);
    assert.equal(await answers.get('q', 'k', load), 1);
    time.advance(999);
    assert.equal(await answers.get('q', 'k', load), 1, 'reused at 999 ms');
    time.advance(1);
    assert.equal(await answers.get('q', 'k', load), 2, 'expired at 1000 ms');
    assert.equal(loads, 2);
  });

  it('counts reuse from when the load began, not from when it ended', async () => {
    const time = clock();
    const answers = new SharedAnswers(() => Promise.resolve(0), { reuseMs: 1000, now: time.now });
    const loads = controlledLoads<string>();
    const first = answers.get('q', 'k', loads.load);
    await settle();
    time.advance(5000);
    const joined = answers.get('q', 'k', loads.load);
    await settle();
    assert.equal(loads.started, 1, 'a running load is joined however long it runs');
    loads.resolve(0, 'slow');
    assert.deepEqual(await Promise.all([first, joined]), ['slow', 'slow']);
    const after = answers.get('q', 'k', loads.load);
    await settle();
    assert.equal(loads.started, 2, 'finished 5 s after it began: older than reuseMs');
    loads.resolve(1, 'fresh');
    assert.equal(await after, 'fresh');
  });

  it('loads again within reuseMs once the event counter moved (a webhook arrived)', async () => {
    const time = clock();
    const counters = new Map<string, number>([['pr:github:o/r', 3]]);
    const answers = new SharedAnswers((key) => Promise.resolve(counters.get(key) ?? 0), { reuseMs: 60_000, now: time.now });
    let loads = 0;
    const load = (): Promise<number> => Promise.resolve(++loads);
    assert.equal(await answers.get('q', 'pr:github:o/r', load), 1);
    assert.equal(await answers.get('q', 'pr:github:o/r', load), 1);
    counters.set('pr:github:o/r', 4);
    assert.equal(await answers.get('q', 'pr:github:o/r', load), 2, 'the webhook makes the next caller load');
    assert.equal(await answers.get('q', 'pr:github:o/r', load), 2, 'then that answer is reused again');
    counters.set('pr:github:other/repo', 9);
    assert.equal(await answers.get('q', 'pr:github:o/r', load), 2, "another key's counter does not matter");
  });

  it('starts a new load when the counter moves while one is running', async () => {
    let epoch = 0;
    const answers = new SharedAnswers(() => Promise.resolve(epoch), { reuseMs: 60_000 });
    const loads = controlledLoads<string>();
    const before = answers.get('q', 'k', loads.load);
    await settle();
    epoch = 1;
    const afterEvent = answers.get('q', 'k', loads.load);
    await settle();
    assert.equal(loads.started, 2, 'the running load may predate the change');
    loads.resolve(0, 'old');
    loads.resolve(1, 'new');
    assert.equal(await before, 'old');
    assert.equal(await afterEvent, 'new');
  });

  it('does not reuse a failed load', async () => {
    const answers = new SharedAnswers(() => Promise.resolve(0), { reuseMs: 60_000 });
    let loads = 0;
    await assert.rejects(
      answers.get('q', 'k', () => Promise.reject(new Error(`failure ${++loads}`))),
      /failure 1/,
    );
    await settle();
    assert.equal(answers.size, 0, 'the failed answer is forgotten');
    assert.equal(await answers.get('q', 'k', () => Promise.resolve(`ok ${++loads}`)), 'ok 2');
  });

  it('shares a failure with the callers that were waiting on it', async () => {
    const answers = new SharedAnswers(() => Promise.resolve(0), { reuseMs: 60_000 });
    const loads = controlledLoads<string>();
    const callers = [answers.get('q', 'k', loads.load), answers.get('q', 'k', loads.load)];
    await settle();
    loads.reject(0, new Error('API down'));
    for (const caller of callers) await assert.rejects(caller, /API down/);
    assert.equal(loads.started, 1);
  });

  it('never reuses an answer when the event counter cannot be read', async () => {
    const answers = new SharedAnswers(() => Promise.reject(new Error('redis unreachable')), { reuseMs: 60_000 });
    let loads = 0;
    const load = (): Promise<number> => Promise.resolve(++loads);
    assert.equal(await answers.get('q', 'k', load), 1);
    assert.equal(await answers.get('q', 'k', load), 2);
    assert.equal(await answers.get('q', 'k', load), 3);
  });

  it('keeps at most maxEntries answers, dropping the oldest first', async () => {
    const answers = new SharedAnswers(() => Promise.resolve(0), { reuseMs: 60_000, maxEntries: 2 });
    let loads = 0;
    const load = (): Promise<number> => Promise.resolve(++loads);
    await answers.get('a', 'k', load);
    await answers.get('b', 'k', load);
    await answers.get('c', 'k', load);
    assert.equal(answers.size, 2);
    assert.equal(await answers.get('c', 'k', load), 3, 'the newest is kept');
    assert.equal(await answers.get('b', 'k', load), 2, 'so is the one before');
    assert.equal(await answers.get('a', 'k', load), 4, 'the oldest was dropped and loads again');
  });
});

describe('remembered answers', () => {
  it('loads an answer once for concurrent callers and keeps it regardless of time and webhooks', async () => {
    const time = clock();
    let epoch = 0;
    const answers = new SharedAnswers(() => Promise.resolve(epoch), { reuseMs: 1000, now: time.now });
    const loads = controlledLoads<boolean>();
    const callers = [answers.remember('path a@sha apps', loads.load), answers.remember('path a@sha apps', loads.load)];
    loads.resolve(0, true);
    assert.deepEqual(await Promise.all(callers), [true, true]);
    time.advance(3_600_000);
    epoch = 5;
    assert.equal(await answers.remember('path a@sha apps', loads.load), true);
    assert.equal(loads.started, 1);
  });

  it('does not keep a failed load', async () => {
    const answers = new SharedAnswers(() => Promise.resolve(0), { reuseMs: 1000 });
    let loads = 0;
    await assert.rejects(
      answers.remember('q', () => Promise.reject(new Error(`failure ${++loads}`))),
      /failure 1/,
    );
    await settle();
    assert.equal(await answers.remember('q', () => Promise.resolve(++loads)), 2);
  });

  it('keeps at most maxRemembered answers, the least recently asked going first', async () => {
    const answers = new SharedAnswers(() => Promise.resolve(0), { reuseMs: 1000, maxRemembered: 2 });
    let loads = 0;
    const load = (): Promise<number> => Promise.resolve(++loads);
    await answers.remember('a', load);
    await answers.remember('b', load);
    assert.equal(await answers.remember('a', load), 1, 'asking a again makes b the least recent');
    await answers.remember('c', load);
    assert.equal(await answers.remember('a', load), 1, 'a is kept');
    assert.equal(await answers.remember('b', load), 4, 'b was dropped and loads again');
  });

  it('keeps remembered answers apart from shared ones', async () => {
    const answers = new SharedAnswers(() => Promise.resolve(0), { reuseMs: 60_000 });
    assert.equal(await answers.get('q', 'k', () => Promise.resolve('shared')), 'shared');
    assert.equal(await answers.remember('q', () => Promise.resolve('remembered')), 'remembered');
    assert.equal(await answers.get('q', 'k', () => Promise.resolve('again')), 'shared');
  });
});
