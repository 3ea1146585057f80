import { diffApplications, reduceAll } from './applications.js';
import { refuses, type ArgoCdResult } from './argocd-render.js';
import type { Expectation } from './corpus.js';

/** What this project's renderer did with a corpus file: all of its Applications, or a refusal. */
export type OurResult = { kind: 'rendered'; applications: readonly unknown[] } | { kind: 'refused'; message: string };

/** How a case passed; a failing case has a message saying how the two renderers differ. */
export type Verdict = { pass: true; outcome: 'matched' | 'deliberate' | 'both-refuse' | 'open' } | { pass: false; message: string };

/** The most lines of a field diff a failure shows: enough to see the pattern, short enough to read. */
const MAX_DIFF_LINES = 40;

/** Argo CD's refusals, one line per ApplicationSet. */
function describeReports(theirs: ArgoCdResult): string {
  const lines = theirs.reports.filter(refuses).map((report) => {
    const invalid = Object.entries(report.invalidApplications ?? {}).map(([app, message]) => `${app} invalid: ${message}`);
    return `  ${report.applicationSet}: ${[...(report.errors ?? []), ...invalid].join('; ')}`;
  });
  return lines.length > 0 ? `Argo CD refused:\n${lines.join('\n')}` : 'Argo CD refused nothing';
}

/** A readable diff of the two renderers' Applications, cut at MAX_DIFF_LINES. */
function describeDiff(ours: readonly unknown[], theirs: ArgoCdResult): string {
  const lines = diffApplications(reduceAll(ours), reduceAll(theirs.applications));
  const shown = lines.slice(0, MAX_DIFF_LINES).map((line) => `  ${line}`);
  if (lines.length > MAX_DIFF_LINES) shown.push(`  ... and ${lines.length - MAX_DIFF_LINES} more`);
  return `${lines.length} differences (this project vs Argo CD):\n${shown.join('\n')}`;
}

/**
 * When this project refused an ApplicationSet for its generated Applications (all or nothing), the Applications
 * Argo CD reported invalid that its message does not name with Argo CD's own text (`Application <name>: <text>`).
 * A refusal at another stage (a render error) is not held to Argo CD's validation texts.
 */
export function unnamedInvalid(message: string, theirs: ArgoCdResult): string[] {
  if (!/ generated Applications (is|are) invalid; /.test(message)) return [];
  return theirs.reports
    .flatMap((report) => Object.entries(report.invalidApplications ?? {}))
    .map(([app, text]) => `Application ${app.slice(app.indexOf('/') + 1)}: ${text}`)
    .filter((line) => !message.includes(line));
}

/** Judges one case against its expectation: equal output, a deliberate refusal of ours, or a refusal by both. */
export function judge(expectation: Expectation, ours: OurResult, theirs: ArgoCdResult): Verdict {
  const theyRefuse = theirs.reports.some(refuses);
  const theyRender = theirs.applications.length > 0;
  const fail = (message: string): Verdict => ({ pass: false, message });
  const oursRefused = (text: string): string => (ours.kind === 'refused' ? `${text}: ${ours.message}` : text);
  switch (expectation.kind) {
    case 'equal': {
      if (ours.kind === 'refused')
        return fail(`${oursRefused('this project refused')}\nArgo CD rendered ${theirs.applications.length}. ${describeReports(theirs)}`);
      const diff = diffApplications(reduceAll(ours.applications), reduceAll(theirs.applications));
      if (diff.length > 0) return fail(`${describeDiff(ours.applications, theirs)}\n${describeReports(theirs)}`);
      if (theyRefuse) return fail(`the Applications are equal, but this project accepted what Argo CD refused.\n${describeReports(theirs)}`);
      return { pass: true, outcome: 'matched' };
    }
    case 'deliberate':
      if (ours.kind === 'rendered') {
        const diff = diffApplications(reduceAll(ours.applications), reduceAll(theirs.applications));
        const how = diff.length === 0 ? 'both render the same Applications' : describeDiff(ours.applications, theirs);
        return fail(`declared "deliberate ${expectation.reason}", but this project rendered: ${how}`);
      }
      if (!theyRender)
        return fail(`declared "deliberate ${expectation.reason}", but Argo CD renders nothing either (both-refuse?).\n${describeReports(theirs)}`);
      if (unnamedInvalid(ours.message, theirs).length > 0)
        return fail(
          `this project refused the generated Applications but does not name, in Argo CD's words:\n  ${unnamedInvalid(ours.message, theirs).join('\n  ')}\nits message: ${ours.message}`,
        );
      return { pass: true, outcome: 'deliberate' };
    case 'open': {
      // A known difference not fixed yet: it passes while the two still differ, and fails once they agree, so
      // the mark is removed with the fix instead of hiding a case that now matches.
      const agree =
        ours.kind === 'rendered'
          ? !theyRefuse && diffApplications(reduceAll(ours.applications), reduceAll(theirs.applications)).length === 0
          : theyRefuse && !theyRender;
      if (agree) return fail(`declared "open ${expectation.reason}", but both renderers now agree: remove the mark`);
      return { pass: true, outcome: 'open' };
    }
    case 'both-refuse':
      if (ours.kind === 'rendered') return fail(`declared "both-refuse", but this project rendered ${ours.applications.length} Applications`);
      if (theyRender || !theyRefuse) {
        return fail(`declared "both-refuse", but Argo CD rendered ${theirs.applications.length} Applications. ${describeReports(theirs)}`);
      }
      return { pass: true, outcome: 'both-refuse' };
  }
}
