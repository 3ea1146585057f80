import { INTENT_HASH_ANNOTATION } from '../../controller/plan/apply-intent.js';
import { canonicalJson } from '../../controller/plan/canonical-json.js';
import type { Preview, PreviewWorld } from '../../controller/reconcile/preview.js';
import type { Application } from '../../model/objects.js';
import type { ApplicationChange, ApplicationSetDiff } from './diff-report.js';
import { fieldsOnlyAppliedByController } from './applied-fields.js';
import { diffFields, leafChanges } from './field-diff.js';

/** How the live side's labels, annotations and finalizers are compared. */
export interface CompareOptions {
  /**
   * Compare only what the controller's next apply can change (live mode): the label and annotation keys and
   * finalizers it writes now, and those its apply alone owned before (from `metadata.managedFields`), which the
   * apply removes when the render no longer has them; others' keys on a live Application are theirs and stay.
   * Otherwise everything (Git mode: both sides are what the controller wrote).
   */
  readonly ownKeysOnly: boolean;
}

/** Which keys and finalizers of a live Application are compared; all when absent. */
interface Kept {
  readonly label: (key: string) => boolean;
  readonly annotation: (key: string) => boolean;
  readonly finalizer: (value: string) => boolean;
}

/** The parts of an Application the controller writes, as compared: labels, annotations (without the intent hash), finalizers, spec. */
function comparable(app: Application, kept?: Kept): Record<string, unknown> {
  const pick = (values: Readonly<Record<string, string>> | undefined, keep: ((key: string) => boolean) | undefined): Record<string, string> | undefined => {
    if (!values) return undefined;
    const entries = Object.entries(values).filter(([key]) => key !== INTENT_HASH_ANNOTATION && (!keep || keep(key)));
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
  };
  const finalizers = (app.metadata.finalizers ?? []).filter((value) => !kept || kept.finalizer(value));
  const metadata = {
    labels: pick(app.metadata.labels, kept?.label),
    annotations: pick(app.metadata.annotations, kept?.annotation),
    finalizers: finalizers.length > 0 ? finalizers : undefined,
  };
  return { metadata, spec: app.spec };
}

/** What of `live` the controller's apply of `intent` can change: what the intent writes, and what its apply alone owned. */
function keptFor(live: Application, intent: Application): Kept {
  const applied = fieldsOnlyAppliedByController(live);
  const has = (values: Readonly<Record<string, string>> | undefined, key: string): boolean => values !== undefined && Object.hasOwn(values, key);
  const finalizers = new Set(intent.metadata.finalizers ?? []);
  return {
    label: (key) => has(intent.metadata.labels, key) || applied.labels.has(key),
    annotation: (key) => has(intent.metadata.annotations, key) || applied.annotations.has(key),
    finalizer: (value) => finalizers.has(value) || applied.finalizers.has(value),
  };
}

/** Each create, update (field by field against the live object), delete and refused delete of a preview's plan. */
function changesOf(plan: NonNullable<Preview['plan']>, preview: Preview, world: PreviewWorld, options: CompareOptions): ApplicationChange[] {
  // With a RollingSync's steps: the step (1-based, -1 for none, as Argo CD's applicationStatus) a create or update syncs in.
  const stepOf = preview.stepOf;
  const step = (name: string): { step?: number } => (stepOf ? { step: (stepOf.get(name) ?? -2) + 1 } : {});
  return [
    ...plan.create.map((app) => ({
      name: app.metadata.name,
      action: 'create' as const,
      ...step(app.metadata.name),
      fields: leafChanges(comparable(app), 'added'),
    })),
    ...plan.update.map((intent) => {
      const live = world.lookup(intent.metadata.name);
      const before = live ? comparable(live, options.ownKeysOnly ? keptFor(live, intent) : undefined) : {};
      return { name: intent.metadata.name, action: 'update' as const, ...step(intent.metadata.name), fields: diffFields(before, comparable(intent)) };
    }),
    ...plan.delete.map((app) => ({ name: app.metadata.name, action: 'delete' as const, fields: leafChanges(comparable(app), 'removed') })),
    ...refusedDeletes(preview, world).map((app) => ({
      name: app.metadata.name,
      action: 'delete' as const,
      refused: true,
      fields: leafChanges(comparable(app), 'removed'),
    })),
  ];
}

/**
 * The Application by Application view of a preview: what the plan creates, updates (field by field against the
 * live object) and deletes, the deletes the guard refuses, renames (a delete and a create of the same
 * Application under another name), and what the policy skips. A refusal before the plan changes nothing.
 */
export function applicationSetDiff(
  appset: { readonly namespace: string; readonly name: string },
  presence: ApplicationSetDiff['presence'],
  preview: Preview,
  world: PreviewWorld,
  options: CompareOptions,
): ApplicationSetDiff {
  const verdict = preview.kind === 'planned' ? { result: 'accepted' as const } : { result: preview.kind, reason: preview.reason, message: preview.message };
  const plan = preview.plan;
  const base = { namespace: appset.namespace, name: appset.name, presence, verdict, notes: [] as string[] };
  if (!plan) return { ...base, changes: [], unchanged: 0, skippedByPolicy: { updates: [], deletes: [] }, conflicts: [] };
  const changes = changesOf(plan, preview, world, options);
  const notes: string[] = [];
  if (plan.updatesSkippedByPolicy.length > 0 || plan.deletesSkippedByPolicy.length > 0) {
    notes.push(`sync policy ${preview.policy ?? ''}: ${skippedSentence(plan.updatesSkippedByPolicy.length, plan.deletesSkippedByPolicy.length)}`);
  }
  return {
    ...base,
    ...(preview.policy ? { policy: preview.policy } : {}),
    changes: markRenames(changes).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.action < b.action ? -1 : 1)),
    unchanged: plan.unchanged.length,
    skippedByPolicy: { updates: [...plan.updatesSkippedByPolicy], deletes: [...plan.deletesSkippedByPolicy] },
    conflicts: plan.conflicts.map((c) => ({ name: c.name, owner: c.owner })),
    notes,
  };
}

/** `2 updates and 1 delete are not made`. */
function skippedSentence(updates: number, deletes: number): string {
  const parts = [updates > 0 ? `${updates} update${updates === 1 ? '' : 's'}` : '', deletes > 0 ? `${deletes} delete${deletes === 1 ? '' : 's'}` : ''].filter(
    Boolean,
  );
  return `${parts.join(' and ')} ${updates + deletes === 1 ? 'is' : 'are'} not made (the policy does not allow ${updates > 0 && deletes > 0 ? 'updates or deletes' : updates > 0 ? 'updates' : 'deletes'})`;
}

/** The owned Applications the deletion guard keeps: no longer generated, not deleted. */
function refusedDeletes(preview: Preview, world: PreviewWorld): Application[] {
  const plan = preview.plan;
  if (!plan?.deletionRefused) return [];
  const wanted = new Set([
    ...plan.create.map((a) => a.metadata.name),
    ...plan.update.map((a) => a.metadata.name),
    ...plan.unchanged,
    ...plan.conflicts.map((c) => c.name),
    ...plan.updatesSkippedByPolicy,
  ]);
  return world.owned.filter((app) => !wanted.has(app.metadata.name) && !app.metadata.deletionTimestamp);
}

/** Pairs each create with a delete whose fields are the same: the Application was renamed. */
function markRenames(changes: ApplicationChange[]): ApplicationChange[] {
  const body = (change: ApplicationChange): string =>
    canonicalJson(change.fields.filter((f) => f.path !== 'metadata.labels' && !f.path.startsWith('metadata.labels')).map((f) => [f.path, f.before ?? f.after]));
  const deletes = new Map<string, ApplicationChange[]>();
  for (const change of changes) if (change.action === 'delete' && !change.refused) deletes.set(body(change), [...(deletes.get(body(change)) ?? []), change]);
  const renamed = new Map<string, string>(); // deleted name → created name
  const result = changes.map((change) => {
    if (change.action !== 'create') return change;
    const from = deletes.get(body(change))?.shift();
    if (!from) return change;
    renamed.set(from.name, change.name);
    return { ...change, renamedFrom: from.name };
  });
  return result.map((change) => {
    const to = change.action === 'delete' ? renamed.get(change.name) : undefined;
    return to ? { ...change, renamedTo: to } : change;
  });
}
