import type { SyncPolicy } from '../../model/sync-policy.js';
import type { FieldChange } from './field-diff.js';

/**
 * The report of `appset diff`, the `-o json` output. Its shape is documented in docs/diff.md; fields are only
 * ever added, and a change that breaks readers raises {@link DIFF_SCHEMA_VERSION}.
 */
export interface DiffReport {
  readonly schemaVersion: typeof DIFF_SCHEMA_VERSION;
  readonly mode: 'git' | 'live';
  /** What the change is compared against: a commit SHA (Git mode) or `cluster` (live mode). */
  readonly base: string;
  /** What is previewed: a commit SHA, `work tree` (Git mode without --head) or `files` (live mode). */
  readonly head: string;
  readonly summary: DiffSummary;
  /** Sorted by namespace, then name. */
  readonly applicationSets: readonly ApplicationSetDiff[];
}

/** The version of the {@link DiffReport} shape. */
export const DIFF_SCHEMA_VERSION = 1;

/** Counts over every ApplicationSet. */
export interface DiffSummary {
  readonly applicationSets: number;
  /** ApplicationSets with at least one create, update or delete. */
  readonly changed: number;
  readonly created: number;
  readonly updated: number;
  readonly deleted: number;
  readonly unchanged: number;
  /** ApplicationSets the controller would refuse (a status condition, Applications not written or not deleted). */
  readonly refused: number;
  /** ApplicationSets whose reconcile would fail and be retried (a generator or template error). */
  readonly failed: number;
}

/** What the controller would decide for one ApplicationSet: carry it out, refuse it, or fail and retry. */
export interface Verdict {
  readonly result: 'accepted' | 'refused' | 'failed';
  /** The condition reason, e.g. `ApplicationValidationError` (not for `accepted`). */
  readonly reason?: string;
  /** Exactly the message the ApplicationSet's `ErrorOccurred` condition would show (not for `accepted`). */
  readonly message?: string;
}

/** What changes for one ApplicationSet. */
export interface ApplicationSetDiff {
  readonly namespace: string;
  readonly name: string;
  /** `added`: only on the head side; `removed`: only on the base side (its Applications go with it). */
  readonly presence: 'added' | 'removed' | 'present';
  /** The sync policy in force (`sync`, `create-only`, ...), when the controller got as far as planning. */
  readonly policy?: SyncPolicy;
  readonly verdict: Verdict;
  /** Creates, updates and deletes, sorted by name. */
  readonly changes: readonly ApplicationChange[];
  /** How many Applications stay as they are. */
  readonly unchanged: number;
  /** Applications the policy keeps the controller from updating or deleting. */
  readonly skippedByPolicy: { readonly updates: readonly string[]; readonly deletes: readonly string[] };
  /** Applications the ApplicationSet generates but someone else controls (not taken over). */
  readonly conflicts: ReadonlyArray<{ readonly name: string; readonly owner: string }>;
  /** Sentences for people, e.g. why the base side could not be rendered. */
  readonly notes: readonly string[];
}

/** One Application created, updated or deleted. */
export interface ApplicationChange {
  readonly name: string;
  readonly action: 'create' | 'update' | 'delete';
  /** True for a delete the deletion guard refuses: the Application stays. */
  readonly refused?: boolean;
  /** A create whose Application matches a deleted one but for its name. */
  readonly renamedFrom?: string;
  /** A delete whose Application is created again under another name. */
  readonly renamedTo?: string;
  /**
   * With `--enable-progressive-syncs` and a RollingSync with steps: the step a create or update syncs in (1-based,
   * in the order the controller syncs them; -1 when no step selects it, so the rollout never syncs it).
   */
  readonly step?: number;
  /** Field by field: every field for a create (added) or delete (removed), the differing ones for an update. */
  readonly fields: readonly FieldChange[];
}

/** Exit codes of `appset diff`, as `diff` and `kubectl diff` use them. */
export const DiffExit = { NoChanges: 0, Changes: 1, ErrorsOrRefusals: 2 } as const;

/** 2 when anything is refused or fails, else 1 when anything changes, else 0. */
export function diffExitCode(report: DiffReport): number {
  if (report.summary.refused > 0 || report.summary.failed > 0) return DiffExit.ErrorsOrRefusals;
  return report.summary.changed > 0 ? DiffExit.Changes : DiffExit.NoChanges;
}

/** The summary counts of a list of ApplicationSet diffs. */
export function summarize(applicationSets: readonly ApplicationSetDiff[]): DiffSummary {
  const count = (action: ApplicationChange['action']): number =>
    applicationSets.reduce((n, set) => n + set.changes.filter((c) => c.action === action && !c.refused).length, 0);
  return {
    applicationSets: applicationSets.length,
    changed: applicationSets.filter((set) => set.changes.some((c) => !c.refused)).length,
    created: count('create'),
    updated: count('update'),
    deleted: count('delete'),
    unchanged: applicationSets.reduce((n, set) => n + set.unchanged, 0),
    refused: applicationSets.filter((set) => set.verdict.result === 'refused').length,
    failed: applicationSets.filter((set) => set.verdict.result === 'failed').length,
  };
}
