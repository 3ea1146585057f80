import { createHash } from 'node:crypto';
import type { ScmAccess } from '../scm/access.js';
import type { ProviderConnection } from '../scm/provider.js';
import { GeneratorSpecError } from './spec-reading.js';

/** How long one shared provider listing may run, whoever asked first (callers still stop at their own signal). */
const SHARED_LOAD_TIMEOUT_MS = 120_000;

/** The webhook provider name (as events name it) of each spec key of the two SCM generators. */
export const EVENT_PROVIDER: Readonly<Record<string, string>> = {
  github: 'github',
  gitlab: 'gitlab',
  gitea: 'gitea',
  bitbucketServer: 'bitbucket-server',
  bitbucket: 'bitbucket',
  azuredevops: 'azuredevops',
  azureDevOps: 'azuredevops',
};

/** The default requeue of both SCM generators, as Argo CD: 30 minutes. */
export const DEFAULT_SCM_REQUEUE_MS = 30 * 60_000;

/** What the requeue of a pull request or SCM provider generator depends on. */
export interface ScmRequeueInput {
  /** `pullRequest` or `scmProvider`. */
  readonly kind: string;
  readonly requeueAfterSeconds: number | undefined;
  readonly provider: { connection(spec: unknown): ProviderConnection; question(spec: unknown): string };
  readonly providerSpec: unknown;
}

/** The requeue of an SCM generator: its interval (Argo CD's default: 30 minutes), landing on its question's slot. */
export function scmRequeueMs(input: ScmRequeueInput): number {
  const interval = input.requeueAfterSeconds === undefined ? DEFAULT_SCM_REQUEUE_MS : input.requeueAfterSeconds * 1000;
  const question = `${input.kind}\n${input.provider.connection(input.providerSpec).apiBase}\n${input.provider.question(input.providerSpec)}`;
  return slotDelayMs(interval, question);
}

/** The shortest requeue a slot gives, so a reconcile that ends just before its slot does not run again at once. */
const MIN_SLOT_DELAY_MS = 1000;

/**
 * How long until the next poll slot of a question: every `intervalMs` on the wall clock, at an offset the
 * question's key decides. ApplicationSets asking the same question (on any replica) then poll at the
 * same instants, however far apart they were created, so one listing serves them all; different
 * questions fall at different offsets, so they do not all poll at once. No answer gets older than
 * `intervalMs`, as with Argo CD's own requeue. An interval of 0 stays 0.
 */
export function slotDelayMs(intervalMs: number, slotKey: string, now = Date.now()): number {
  if (intervalMs <= 0) return intervalMs;
  const offset = createHash('sha256').update(slotKey).digest().readUInt32BE(0) % intervalMs;
  let next = Math.floor((now - offset) / intervalMs) * intervalMs + offset + intervalMs;
  if (next - now < MIN_SLOT_DELAY_MS) next += intervalMs;
  return next - now;
}

/**
 * Asks a shared question: the load runs under its own time limit, not under the first caller's signal,
 * because other callers may be waiting on it; each caller stops waiting when its own signal aborts.
 */
export function askShared<T>(scm: ScmAccess, question: string, eventKey: string, signal: AbortSignal, load: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return untilAborted(
    scm.share(question, eventKey, () => load(AbortSignal.timeout(SHARED_LOAD_TIMEOUT_MS))),
    signal,
  );
}

/** Asks a question whose answer never changes (see ScmAccess.remember), on the same terms as {@link askShared}. */
export function askRemembered<T>(scm: ScmAccess, question: string, signal: AbortSignal, load: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return untilAborted(
    scm.remember(question, () => load(AbortSignal.timeout(SHARED_LOAD_TIMEOUT_MS))),
    signal,
  );
}

/** `shared`, or the caller's abort, whichever comes first (the shared load itself goes on for the others). */
function untilAborted<T>(shared: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    shared.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The one provider key of a generator spec among `known`; `refused` names providers that are Argo CD's but not implemented. */
export function pickProvider(
  body: Record<string, unknown>,
  known: readonly string[],
  common: readonly string[],
  field: string,
  refused: Readonly<Record<string, string>> = {},
): string {
  for (const key of Object.keys(body)) {
    if (body[key] === undefined || body[key] === null) continue;
    if (refused[key]) throw new GeneratorSpecError(`${field}.${key}`, refused[key]);
    if (!known.includes(key) && !common.includes(key))
      throw new GeneratorSpecError(`${field}.${key}`, `unknown field; known: ${[...known, ...common].join(', ')}`);
  }
  const named = known.filter((key) => body[key] !== undefined && body[key] !== null);
  if (named.length !== 1)
    throw new GeneratorSpecError(field, `must name exactly one provider (${known.join(', ')}), found ${named.length === 0 ? 'none' : named.join(', ')}`);
  return named[0] as string;
}
