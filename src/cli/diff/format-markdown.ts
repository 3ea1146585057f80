import type { ApplicationSetDiff, DiffReport } from './diff-report.js';
import { actionPhrase, countsLine, fieldLine } from './format-values.js';

/**
 * Largest markdown output: a GitHub comment holds 65,536 characters, a GitLab note about a million; the rest
 * is left out with a note rather than posting a comment the forge refuses.
 */
export const MARKDOWN_LIMIT = 60_000;

/** One markdown section per ApplicationSet that changes or is refused, each change in a `<details>` block, capped at `limit` characters. */
export function formatMarkdown(report: DiffReport, limit = MARKDOWN_LIMIT): string {
  const s = report.summary;
  const verdict = s.refused + s.failed > 0 ? `**${s.refused} refused, ${s.failed} failed**` : 'nothing refused';
  const head = [
    '## appset diff',
    '',
    `${s.applicationSets} ApplicationSets, ${s.changed} changed: **${s.created}** to create, **${s.updated}** to update, **${s.deleted}** to delete, ${s.unchanged} unchanged; ${verdict}.`,
    `Base \`${report.base}\`, head \`${report.head}\`.`,
    '',
  ].join('\n');
  const sections = report.applicationSets.filter((set) => set.changes.length > 0 || set.verdict.result !== 'accepted' || set.conflicts.length > 0).map(section);
  let text = head;
  for (const [index, part] of sections.entries()) {
    const left = sections.length - index;
    const note = `\n> Output cut at ${limit} characters: ${left} more ApplicationSet${left === 1 ? '' : 's'} not shown. Run \`appset diff -o text\` or \`-o json\` for all of it.\n`;
    if (text.length + part.length + note.length > limit) return text + note;
    text += part;
  }
  return text;
}

function section(set: ApplicationSetDiff): string {
  const presence = set.presence === 'present' ? '' : ` (${set.presence})`;
  const lines = [`### ApplicationSet \`${set.namespace}/${set.name}\`${presence}`, '', countsLine(set), ''];
  if (set.verdict.result !== 'accepted')
    lines.push(`> **${set.verdict.result === 'refused' ? 'Refused' : 'Failed'}** (\`${set.verdict.reason ?? ''}\`): ${escape(set.verdict.message ?? '')}`, '');
  for (const conflict of set.conflicts) lines.push(`- \`${conflict.name}\` is controlled by ${escape(conflict.owner)}: not taken over`);
  for (const note of set.notes) lines.push(`- ${escape(note)}`);
  if (set.conflicts.length + set.notes.length > 0) lines.push('');
  for (const change of set.changes) {
    const body = change.action === 'delete' ? [] : change.fields.map((f) => fieldLine(f)).map((l) => `${l.sign === '~' ? '!' : l.sign} ${l.text}`);
    lines.push(
      `<details><summary>${change.action === 'create' ? '➕' : change.action === 'delete' ? '➖' : '✏️'} <code>${escape(change.name)}</code>: ${escape(actionPhrase(change))}</summary>`,
      '',
    );
    if (body.length > 0) lines.push('```diff', ...body.map((line) => line.replace(/```/g, "'''")), '```', '');
    lines.push('</details>', '');
  }
  return lines.join('\n') + '\n';
}

/** Text safe inside markdown and HTML: no tags, no table or emphasis surprises. */
function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
