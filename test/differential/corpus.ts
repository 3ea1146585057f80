import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What a corpus file declares about the two renderers: equal output unless its header says otherwise. */
export type Expectation = { kind: 'equal' } | { kind: 'deliberate'; reason: string } | { kind: 'both-refuse' } | { kind: 'open'; reason: string };

/** One corpus file: ApplicationSet manifests and the expectation of its header comment. */
export interface CorpusCase {
  readonly name: string;
  readonly file: string;
  readonly expectation: Expectation;
}

/**
 * The expectation in the leading comment lines of a corpus file: `# expect: deliberate <reason>`,
 * `# expect: both-refuse`, or `# expect: open <rule>` (a difference found and not fixed yet). A malformed one throws, so a typo cannot silently turn a case into an equality check.
 */
export function parseExpectation(text: string, where: string): Expectation {
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    if (!trimmed.startsWith('#')) break; // the header ends at the first YAML line
    const declared = /^#\s*expect:\s*(.*)$/.exec(trimmed)?.[1]?.trim();
    if (declared === undefined) continue;
    if (declared === 'both-refuse') return { kind: 'both-refuse' };
    const reason = /^deliberate\s+(\S.*)$/.exec(declared)?.[1];
    if (reason) return { kind: 'deliberate', reason };
    const open = /^open\s+(\S.*)$/.exec(declared)?.[1];
    if (open) return { kind: 'open', reason: open };
    throw new Error(`${where}: "# expect: ${declared}" must be "deliberate <reason>", "both-refuse" or "open <rule>"`);
  }
  return { kind: 'equal' };
}

/** The corpus: every `*.yaml` of `dir`, sorted by name. */
export function readCorpus(dir: string): CorpusCase[] {
  return readdirSync(dir)
    .filter((entry) => entry.endsWith('.yaml'))
    .sort()
    .map((entry) => {
      const file = join(dir, entry);
      return { name: entry, file, expectation: parseExpectation(readFileSync(file, 'utf8'), file) };
    });
}
