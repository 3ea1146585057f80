import type { ApplicationSetDiff } from './diff-report.js';
import type { FieldChange } from './field-diff.js';

/** Longest value a field line shows; longer ones are cut with `…` (the JSON output has them whole). */
const MAX_VALUE = 160;

/** A value as one line of compact JSON, cut to a readable length. */
export function showValue(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/** One field change as a diff line: its sign and `path: value` (`before → after` for a change). */
export function fieldLine(field: FieldChange): { sign: '+' | '-' | '~'; text: string } {
  switch (field.kind) {
    case 'added':
      return { sign: '+', text: `${field.path}: ${showValue(field.after)}` };
    case 'removed':
      return { sign: '-', text: `${field.path}: ${showValue(field.before)}` };
    case 'reordered':
      return { sign: '~', text: `${field.path}: reordered ${showValue(field.before)} → ${showValue(field.after)}` };
    default:
      return { sign: '~', text: `${field.path}: ${showValue(field.before)} → ${showValue(field.after)}` };
  }
}

/** `policy sync · 2 to create · 1 to update · 0 to delete · 5 unchanged`, the head line of an ApplicationSet. */
export function countsLine(set: ApplicationSetDiff): string {
  const count = (action: string): number => set.changes.filter((c) => c.action === action && !c.refused).length;
  const parts = [
    ...(set.policy ? [`policy ${set.policy}`] : []),
    `${count('create')} to create`,
    `${count('update')} to update`,
    `${count('delete')} to delete`,
    `${set.unchanged} unchanged`,
  ];
  return parts.join(' · ');
}

/** What happens to an ApplicationSet's change as a short phrase, e.g. `delete (refused by the deletion guard)`. */
export function actionPhrase(change: ApplicationSetDiff['changes'][number]): string {
  const phrase = plainPhrase(change);
  if (change.step === undefined) return phrase;
  return `${phrase}, ${change.step > 0 ? `RollingSync step ${change.step}` : 'in no RollingSync step (never synced by the rollout)'}`;
}

function plainPhrase(change: ApplicationSetDiff['changes'][number]): string {
  if (change.refused) return 'delete refused by the deletion guard: stays';
  if (change.renamedFrom) return `create (renamed from ${change.renamedFrom})`;
  if (change.renamedTo) return `delete (renamed to ${change.renamedTo})`;
  // The controller applies again when its intent changed even if no field it owns on the live object does.
  if (change.action === 'update' && change.fields.length === 0) return 'update (applied again: no field changes)';
  return change.action;
}
