// A fake ScmAccess for generator tests: records what generators connect to and which questions they ask,
// and shares answers through a real SharedAnswers, as the controller's access does.
import type { ScmAccess } from '../../../src/scm/access.js';
import type { ApiClient } from '../../../src/scm/http/api-client.js';
import { ScmRequestRefused } from '../../../src/scm/http/errors.js';
import type { ProviderConnection } from '../../../src/scm/provider.js';
import { SharedAnswers } from '../../../src/scm/shared-answers.js';

/** What a fake access saw. */
export interface FakeScm extends ScmAccess {
  readonly connections: ProviderConnection[];
  readonly questions: { question: string; eventKey: string }[];
  /** Questions asked through `remember` (answers that never change). */
  readonly remembered: string[];
  /** The credential identity the next clients get (answers are shared per identity). */
  identity: string;
  /** Moves the event counter of `key`, as a webhook does. */
  bump(key: string): void;
}

/** A fake access whose clients never reach a network; providers under test must not call `request`. */
export function fakeScm(options: { reuseMs?: number; now?: () => number } = {}): FakeScm {
  const counters = new Map<string, number>();
  const answers = new SharedAnswers((key) => Promise.resolve(counters.get(key) ?? 0), {
    reuseMs: options.reuseMs ?? 60_000,
    ...(options.now ? { now: options.now } : {}),
  });
  const fake: FakeScm = {
    connections: [],
    questions: [],
    remembered: [],
    identity: 'creds-1',
    bump: (key) => void counters.set(key, (counters.get(key) ?? 0) + 1),
    connect(connection) {
      fake.connections.push(connection);
      const client: ApiClient = {
        baseUrl: connection.apiBase.replace(/\/+$/, ''),
        credentialIdentity: fake.identity,
        request: () => Promise.reject(new ScmRequestRefused('the fake SCM access sends nothing')),
      };
      return Promise.resolve(client);
    },
    share(question, eventKey, load) {
      fake.questions.push({ question, eventKey });
      return answers.get(question, eventKey, load);
    },
    remember(question, load) {
      fake.remembered.push(question);
      return answers.remember(question, load);
    },
  };
  return fake;
}

/** Resolves after pending I/O callbacks and microtasks have run. */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
