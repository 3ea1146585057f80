import type { DiffReport } from './diff-report.js';
import { actionPhrase, countsLine, fieldLine } from './format-values.js';

const COLOURS = { '+': '\u001b[32m', '-': '\u001b[31m', '~': '\u001b[33m', '!': '\u001b[1;31m', bold: '\u001b[1m' } as const;
const RESET = '\u001b[0m';

/** The report for people at a terminal: one block per ApplicationSet that changes or is refused, then the summary; coloured when `colour`. */
export function formatText(report: DiffReport, colour: boolean): string {
  const paint = (kind: keyof typeof COLOURS, text: string): string => (colour ? `${COLOURS[kind]}${text}${RESET}` : text);
  const lines: string[] = [];
  for (const set of report.applicationSets) {
    const quiet = set.changes.length === 0 && set.verdict.result === 'accepted' && set.notes.length === 0 && set.conflicts.length === 0;
    if (quiet) continue;
    const presence = set.presence === 'present' ? '' : ` (${set.presence})`;
    lines.push(paint('bold', `ApplicationSet ${set.namespace}/${set.name}${presence}: ${countsLine(set)}`));
    if (set.verdict.result !== 'accepted') lines.push(paint('!', `  ! ${set.verdict.result} (${set.verdict.reason ?? ''}): ${set.verdict.message ?? ''}`));
    for (const conflict of set.conflicts) lines.push(paint('!', `  ! ${conflict.name}: controlled by ${conflict.owner}, not taken over`));
    for (const note of set.notes) lines.push(`  note: ${note}`);
    for (const change of set.changes) {
      const sign = change.action === 'create' ? '+' : change.action === 'delete' ? '-' : '~';
      lines.push(paint(sign, `  ${sign} ${change.name}: ${actionPhrase(change)}`));
      if (change.action === 'delete') continue; // what goes is the live object; its fields are in -o json
      for (const field of change.fields) {
        const line = fieldLine(field);
        lines.push(paint(line.sign, `      ${line.sign} ${line.text}`));
      }
    }
  }
  const s = report.summary;
  lines.push(
    `${s.applicationSets} ApplicationSet${s.applicationSets === 1 ? '' : 's'}, ${s.changed} changed: ${s.created} to create, ${s.updated} to update, ${s.deleted} to delete, ${s.unchanged} unchanged; ${s.refused} refused, ${s.failed} failed`,
  );
  return lines.join('\n') + '\n';
}
