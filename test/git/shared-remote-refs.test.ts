import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ResolvedCredentials } from '../../src/git/credentials.js';
import { createLocalPushEpochs, type PushEpochs } from '../../src/git/push-epochs.js';
import { SharedRemoteRefs } from '../../src/git/shared-remote-refs.js';

const URL_ = 'https://git.example/org/apps.git';
const where = { repoURL: URL_, revision: 'HEAD' };
const never = new AbortController().signal;

/** An ls-remote stand-in whose answer names how many times it ran: `<n>` as the SHA of HEAD. */
function countingRemote(): { lsRemote: () => Promise<string>; runs: () => number } {
  let runs = 0;
  return {
    lsRemote: () => Promise.resolve(`${String(++runs).padStart(40, '0')}\tHEAD\n`),
    runs: () => runs,
  };
}

const head = async (refs: Promise<ReadonlyMap<string, string>>): Promise<string | undefined> => (await refs).get('HEAD');

describe('SharedRemoteRefs reuse of recent refs', () => {
  it('without push counters or with no age allowed, runs an ls-remote for every call', async () => {
    const shared = new SharedRemoteRefs();
    const remote = countingRemote();
    await shared.read(where, undefined, never, remote.lsRemote);
    await shared.read(where, undefined, never, remote.lsRemote, { maxAgeMs: 60_000 });
    await shared.read(where, undefined, never, remote.lsRemote, { maxAgeMs: 0, epochs: createLocalPushEpochs() });
    assert.equal(remote.runs(), 3);
  });

  it('reuses refs read within the allowed age while no push came', async () => {
    const shared = new SharedRemoteRefs();
    const remote = countingRemote();
    const freshness = { maxAgeMs: 60_000, epochs: createLocalPushEpochs() };
    const first = await head(shared.read(where, undefined, never, remote.lsRemote, freshness));
    for (let i = 0; i < 5; i++) assert.equal(await head(shared.read(where, undefined, never, remote.lsRemote, freshness)), first);
    assert.equal(remote.runs(), 1);
  });

  it('reads again after a push to the repository, under any spelling of its URL, and not after a push elsewhere', async () => {
    const shared = new SharedRemoteRefs();
    const remote = countingRemote();
    const epochs = createLocalPushEpochs();
    const freshness = { maxAgeMs: 60_000, epochs };
    await shared.read(where, undefined, never, remote.lsRemote, freshness);
    await epochs.advance(['https://git.example/org/other']);
    await shared.read(where, undefined, never, remote.lsRemote, freshness);
    assert.equal(remote.runs(), 1, 'a push to another repository changes nothing here');
    await epochs.advance(['git@git.example:Org/Apps']);
    assert.equal(await head(shared.read(where, undefined, never, remote.lsRemote, freshness)), `${'2'.padStart(40, '0')}`);
    assert.equal(remote.runs(), 2);
  });

  it('reads again once the kept refs are older than the caller allows', async () => {
    const shared = new SharedRemoteRefs();
    const remote = countingRemote();
    const epochs = createLocalPushEpochs();
    await shared.read(where, undefined, never, remote.lsRemote, { maxAgeMs: 60_000, epochs });
    await sleep(30);
    await shared.read(where, undefined, never, remote.lsRemote, { maxAgeMs: 10, epochs });
    assert.equal(remote.runs(), 2);
  });

  it('never hands one caller refs another read with other credentials', async () => {
    const shared = new SharedRemoteRefs();
    const remote = countingRemote();
    const freshness = { maxAgeMs: 60_000, epochs: createLocalPushEpochs() };
    const team = (secret: string): ResolvedCredentials => ({ credentials: { kind: 'bearer', token: secret }, source: { secret, type: 'repository' } });
    await shared.read(where, team('a'), never, remote.lsRemote, freshness);
    await shared.read(where, team('b'), never, remote.lsRemote, freshness);
    await shared.read(where, undefined, never, remote.lsRemote, freshness);
    assert.equal(remote.runs(), 3);
    await shared.read(where, team('a'), never, remote.lsRemote, freshness);
    assert.equal(remote.runs(), 3, 'the same credentials share');
  });

  it('reads afresh when the push counter cannot be read', async () => {
    const shared = new SharedRemoteRefs();
    const remote = countingRemote();
    const broken: PushEpochs = { current: () => Promise.reject(new Error('redis is down')), advance: () => Promise.resolve() };
    await shared.read(where, undefined, never, remote.lsRemote, { maxAgeMs: 60_000, epochs: broken });
    await shared.read(where, undefined, never, remote.lsRemote, { maxAgeMs: 60_000, epochs: broken });
    assert.equal(remote.runs(), 2);
  });

  it('keeps no failure: the next call runs again', async () => {
    const shared = new SharedRemoteRefs();
    const freshness = { maxAgeMs: 60_000, epochs: createLocalPushEpochs() };
    await assert.rejects(
      shared.read(where, undefined, never, () => Promise.reject(new Error('unreachable')), freshness),
      /unreachable/,
    );
    const remote = countingRemote();
    await shared.read(where, undefined, never, remote.lsRemote, freshness);
    assert.equal(remote.runs(), 1);
  });
});

describe('SharedRemoteRefs telling the caller a read follows a push', () => {
  /** An ls-remote stand-in that answers only when told, so a test can look while it runs. */
  function heldRemote(): { lsRemote: () => Promise<string>; answer: () => void; runs: () => number } {
    let runs = 0;
    const waiting: Array<() => void> = [];
    return {
      lsRemote: () => new Promise((resolve) => waiting.push(() => resolve(`${String(++runs).padStart(40, '0')}\tHEAD\n`))),
      answer: () => waiting.splice(0).forEach((release) => release()),
      runs: () => runs,
    };
  }

  it('calls back as the ls-remote after a push begins, before it answers, and not for a first reading or refs that only grew old', async () => {
    const shared = new SharedRemoteRefs();
    const remote = countingRemote();
    const epochs = createLocalPushEpochs();
    let calls = 0;
    const onPush = (): void => void calls++;
    await shared.read(where, undefined, never, remote.lsRemote, { maxAgeMs: 60_000, epochs }, onPush);
    assert.equal(calls, 0, 'a first reading has no push to follow');
    await sleep(30);
    await shared.read(where, undefined, never, remote.lsRemote, { maxAgeMs: 10, epochs }, onPush);
    assert.deepEqual([remote.runs(), calls], [2, 0], 'refs read again for their age alone');

    await epochs.advance([URL_]);
    const held = heldRemote();
    const reading = shared.read(where, undefined, never, held.lsRemote, { maxAgeMs: 60_000, epochs }, onPush);
    await sleep(5);
    assert.deepEqual([calls, held.runs()], [1, 0], 'called while the ls-remote has not answered');
    held.answer();
    await reading;
    await shared.read(where, undefined, never, remote.lsRemote, { maxAgeMs: 60_000, epochs }, onPush);
    assert.equal(calls, 1, 'the push is seen: kept refs serve');
  });

  it('calls back once per push for callers that share runs, also when a second run follows the first', async () => {
    const shared = new SharedRemoteRefs();
    const epochs = createLocalPushEpochs();
    const freshness = { maxAgeMs: 60_000, epochs };
    await shared.read(where, undefined, never, countingRemote().lsRemote, freshness);
    await epochs.advance([URL_]);
    const held = heldRemote();
    let calls = 0;
    const onPush = (): void => void calls++;
    const first = Array.from({ length: 5 }, () => shared.read(where, undefined, never, held.lsRemote, freshness, onPush));
    await sleep(5); // the first run has begun; callers from now on wait for a second one
    const second = Array.from({ length: 5 }, () => shared.read(where, undefined, never, held.lsRemote, freshness, onPush));
    held.answer();
    await Promise.all(first);
    await sleep(5);
    held.answer();
    await Promise.all(second);
    assert.equal(held.runs(), 2, 'two runs: the second for the callers that came while the first ran');
    assert.equal(calls, 1, 'the run queued behind the first sees the refs it kept');
  });

  it('does not call back for callers with other credentials than the kept reading', async () => {
    const shared = new SharedRemoteRefs();
    const epochs = createLocalPushEpochs();
    const freshness = { maxAgeMs: 60_000, epochs };
    const team = (secret: string): ResolvedCredentials => ({ credentials: { kind: 'bearer', token: secret }, source: { secret, type: 'repository' } });
    await shared.read(where, team('a'), never, countingRemote().lsRemote, freshness);
    await epochs.advance([URL_]);
    let calls = 0;
    await shared.read(where, team('b'), never, countingRemote().lsRemote, freshness, () => void calls++);
    assert.equal(calls, 0, 'b never read this repository: nothing says a push is new to it');
    await shared.read(where, team('a'), never, countingRemote().lsRemote, freshness, () => void calls++);
    assert.equal(calls, 1);
  });
});

describe('SharedRemoteRefs memory bound', () => {
  it('keeps at most maxKept readings, forgetting the least recently stored', async () => {
    const shared = new SharedRemoteRefs(2);
    const remote = countingRemote();
    const freshness = { maxAgeMs: 60_000, epochs: createLocalPushEpochs() };
    const at = (n: number) => ({ repoURL: `https://git.example/org/repo-${n}.git`, revision: 'HEAD' });
    await shared.read(at(1), undefined, never, remote.lsRemote, freshness);
    await shared.read(at(2), undefined, never, remote.lsRemote, freshness);
    await shared.read(at(1), undefined, never, remote.lsRemote, freshness); // kept: no run
    assert.equal(remote.runs(), 2);
    // A third reading: repo-1 was stored longest ago (being served from the map does not store it again).
    await shared.read(at(3), undefined, never, remote.lsRemote, freshness);
    await shared.read(at(2), undefined, never, remote.lsRemote, freshness);
    assert.equal(remote.runs(), 3, 'repo-2 is still kept');
    await shared.read(at(1), undefined, never, remote.lsRemote, freshness);
    assert.equal(remote.runs(), 4, 'repo-1 was forgotten to keep two');
  });
});
