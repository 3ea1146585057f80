import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { askRemembered, askShared, pickProvider, slotDelayMs } from '../../../src/generators/scm-common.js';
import { GeneratorSpecError } from '../../../src/generators/spec-reading.js';
import { fakeScm, settle } from './fake-scm.js';

const KNOWN = ['github', 'gitlab', 'gitea'];
const COMMON = ['filters', 'values'];
const specError =
  (text: string) =>
  (error: unknown): boolean => {
    assert.ok(error instanceof GeneratorSpecError, `expected a GeneratorSpecError, got ${String(error)}`);
    assert.equal(error.message, text);
    return true;
  };

describe('pickProvider', () => {
  it('returns the one provider named, beside the common fields', () => {
    assert.equal(pickProvider({ gitlab: {}, filters: [], values: {} }, KNOWN, COMMON, 'scmProvider'), 'gitlab');
  });

  it('skips providers set to null', () => {
    assert.equal(pickProvider({ github: null, gitea: { owner: 'o' } }, KNOWN, COMMON, 'pullRequest'), 'gitea');
  });

  it('refuses none, naming the choices', () => {
    assert.throws(
      () => pickProvider({ filters: [] }, KNOWN, COMMON, 'pullRequest'),
      specError('pullRequest: must name exactly one provider (github, gitlab, gitea), found none'),
    );
  });

  it('refuses two, naming both', () => {
    assert.throws(
      () => pickProvider({ github: {}, gitea: {} }, KNOWN, COMMON, 'pullRequest'),
      specError('pullRequest: must name exactly one provider (github, gitlab, gitea), found github, gitea'),
    );
  });

  it('refuses an unknown field, naming it and what is known', () => {
    assert.throws(
      () => pickProvider({ githubb: {} }, KNOWN, COMMON, 'pullRequest'),
      specError('pullRequest.githubb: unknown field; known: github, gitlab, gitea, filters, values'),
    );
  });

  it('refuses a provider it knows of but does not implement, with its reason, before counting', () => {
    assert.throws(
      () => pickProvider({ awsCodeCommit: {}, github: {} }, KNOWN, COMMON, 'scmProvider', { awsCodeCommit: 'not supported here' }),
      specError('scmProvider.awsCodeCommit: not supported here'),
    );
  });
});

describe('askShared', () => {
  it('lets a caller stop waiting while the shared load goes on for the others', async () => {
    const scm = fakeScm();
    let loads = 0;
    let finish: (value: string) => void = () => undefined;
    let loadSignal: AbortSignal | undefined;
    const load = (signal: AbortSignal): Promise<string> => {
      loads++;
      loadSignal = signal;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    const quitter = new AbortController();
    const first = askShared(scm, 'q', 'k', quitter.signal, load);
    const second = askShared(scm, 'q', 'k', new AbortController().signal, load);
    await settle();
    quitter.abort(new Error('first caller cancelled'));
    await assert.rejects(first, /first caller cancelled/);
    assert.equal(loadSignal?.aborted, false, "the load does not run under the first caller's signal");
    finish('listing');
    assert.equal(await second, 'listing');
    assert.equal(loads, 1);
    assert.deepEqual(scm.questions, [
      { question: 'q', eventKey: 'k' },
      { question: 'q', eventKey: 'k' },
    ]);
  });

  it('refuses at once when the caller is already aborted', async () => {
    const scm = fakeScm();
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await assert.rejects(async () => askShared(scm, 'q', 'k', controller.signal, () => Promise.resolve('x')), /gone/);
  });

  it('hands each caller the failure of the shared load', async () => {
    const scm = fakeScm();
    const failing = (): Promise<string> => Promise.reject(new Error('API down'));
    await assert.rejects(askShared(scm, 'q', 'k', new AbortController().signal, failing), /API down/);
  });

  it('gives the load a signal of its own with a time limit', async () => {
    const scm = fakeScm();
    let seen: AbortSignal | undefined;
    await askShared(scm, 'q', 'k', new AbortController().signal, (signal) => {
      seen = signal;
      return Promise.resolve(1);
    });
    assert.ok(seen instanceof AbortSignal);
    assert.equal(seen.aborted, false);
  });

  it('lets a caller of a remembered question stop waiting too, and keeps the answer for the next', async () => {
    const scm = fakeScm();
    let loads = 0;
    let finish: (value: boolean) => void = () => undefined;
    const load = (): Promise<boolean> => {
      loads++;
      return new Promise<boolean>((resolve) => (finish = resolve));
    };
    const quitter = new AbortController();
    const first = askRemembered(scm, 'path', quitter.signal, load);
    quitter.abort('not an Error');
    await assert.rejects(first, (error: unknown) => error instanceof Error);
    finish(true);
    assert.equal(await askRemembered(scm, 'path', new AbortController().signal, load), true);
    assert.equal(loads, 1);
  });
});

describe('slotDelayMs', () => {
  const HOUR = 3_600_000;
  const T = Date.parse('2026-05-01T10:00:00Z');

  it('leaves an interval of 0 at 0', () => assert.equal(slotDelayMs(0, 'k', T), 0));

  it('waits at most one interval, and at least a second', () => {
    for (let i = 0; i < 200; i++) {
      const delay = slotDelayMs(HOUR, `question ${i}`, T + i * 7919);
      assert.ok(delay >= 1000 && delay <= HOUR, `${delay} ms`);
    }
  });

  it('lands callers of one question on the same instant, whenever they ask within the slot', () => {
    const first = T + slotDelayMs(HOUR, 'pullRequest o/r', T);
    for (const later of [1, 60_000, 600_000]) {
      const now = first - HOUR + later;
      assert.equal(now + slotDelayMs(HOUR, 'pullRequest o/r', now), first, `${later} ms into the slot`);
    }
  });

  it('moves to the following slot when the next one is less than a second away', () => {
    const slot = T + slotDelayMs(HOUR, 'k', T);
    assert.equal(slotDelayMs(HOUR, 'k', slot - 999), HOUR + 999);
    assert.equal(slotDelayMs(HOUR, 'k', slot - 1000), 1000);
    assert.equal(slotDelayMs(HOUR, 'k', slot), HOUR, 'exactly at a slot: the next one');
  });

  it('spreads different questions over the interval', () => {
    const instants = new Set(Array.from({ length: 50 }, (_, i) => slotDelayMs(HOUR, `org-${i}`, T)));
    assert.ok(instants.size >= 45, `${instants.size} distinct instants out of 50`);
  });
});
