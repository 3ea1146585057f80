import { parseArgs } from 'node:util';
import type { ArgoCdConfig } from '../test/system/argocd-process.js';

/** Sizes and windows of one system benchmark run. */
export interface SystemBenchOptions {
  readonly appSets: number;
  readonly appsPerSet: number;
  /** Reconciles in flight across all replicas (split evenly between them). */
  readonly totalReconciles: number;
  readonly idleSeconds: number;
  /** `--resync-period` of the replicas whose idle cost is measured (the rounds' replicas use the controller's default). */
  readonly resyncPeriod: string;
  readonly pushes: number;
  readonly convergeTimeoutSeconds: number;
  /** Rounds of (ceiling, 1 replica) converges; the headline is the median of their ratios. */
  readonly rounds: number;
  /**
   * ApplicationSets each round's replicas converge, and then lose, before the clock starts (0: replicas
   * start cold). The ceiling's client runs in this warm process; a controller in production has been
   * running long before a user applies a wave of ApplicationSets.
   */
  readonly warmUpAppSets: number;
  /** Write the results file (off for quick trial runs at small sizes). */
  readonly write: boolean;
  /** Skip the converge rounds and the webhook: start 2 replicas, converge once, measure the idle phase only. */
  readonly idleOnly: boolean;
  /** Argo CD's own controller in each round, in these configurations (none: the comparison is skipped). */
  readonly argocd: readonly ArgoCdConfig[];
  /** The results file's name under bench/results/ (without .json). */
  readonly resultsName: string;
}

const ARGOCD_CONFIGS: readonly ArgoCdConfig[] = ['shipped', 'lifted'];

/** `--argocd shipped,lifted` (the default), one of them, or `none`. */
function argoCdConfigs(raw: string | undefined): ArgoCdConfig[] {
  if (raw === undefined) return [...ARGOCD_CONFIGS];
  if (raw === 'none') return [];
  const configs = raw.split(',');
  const unknown = configs.filter((c) => !ARGOCD_CONFIGS.includes(c as ArgoCdConfig));
  if (unknown.length > 0 || configs.length === 0) throw new Error(`--argocd takes shipped, lifted, both (shipped,lifted) or none, not "${raw}"`);
  return [...new Set(configs as ArgoCdConfig[])];
}

const positive = (name: string, raw: string | undefined, fallback: number): number => {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, not "${raw}"`);
  return value;
};

const nonNegative = (name: string, raw: string | undefined, fallback: number): number => (raw === '0' ? 0 : positive(name, raw, fallback));

/** Reads the benchmark's flags; a bad value is an error naming the flag. */
export function readSystemBenchOptions(argv: readonly string[]): SystemBenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      'app-sets': { type: 'string' },
      'apps-per-set': { type: 'string' },
      'total-reconciles': { type: 'string' },
      'idle-seconds': { type: 'string' },
      'resync-period': { type: 'string' },
      pushes: { type: 'string' },
      'converge-timeout-seconds': { type: 'string' },
      rounds: { type: 'string' },
      'warm-up-app-sets': { type: 'string' },
      'no-write': { type: 'boolean' },
      'idle-only': { type: 'boolean' },
      argocd: { type: 'string' },
      'results-name': { type: 'string' },
    },
    strict: true,
  });
  const totalReconciles = positive('total-reconciles', values['total-reconciles'], 10);
  if (totalReconciles % 2 !== 0) throw new Error('--total-reconciles must be even: it is split between 1 and 2 replicas');
  return {
    appSets: positive('app-sets', values['app-sets'], 100),
    appsPerSet: positive('apps-per-set', values['apps-per-set'], 100),
    totalReconciles,
    idleSeconds: positive('idle-seconds', values['idle-seconds'], 120),
    resyncPeriod: values['resync-period'] ?? '1m',
    pushes: positive('pushes', values.pushes, 20),
    convergeTimeoutSeconds: positive('converge-timeout-seconds', values['converge-timeout-seconds'], 1800),
    rounds: positive('rounds', values.rounds, 5),
    warmUpAppSets: nonNegative('warm-up-app-sets', values['warm-up-app-sets'], 6),
    write: values['no-write'] !== true,
    idleOnly: values['idle-only'] === true,
    argocd: argoCdConfigs(values.argocd),
    resultsName: resultsName(values['results-name']),
  };
}

/** A results file name: letters, digits and dashes only, so it cannot leave bench/results/. */
export function resultsName(raw: string | undefined, fallback = 'system'): string {
  if (raw === undefined) return fallback;
  if (!/^[a-z0-9][a-z0-9-]*$/.test(raw)) throw new Error(`--results-name must be lower-case letters, digits and dashes, not "${raw}"`);
  return raw;
}
