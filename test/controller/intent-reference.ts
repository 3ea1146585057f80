// The first implementation of the intent stamp (sessions 1-6), kept as the reference the faster one must
// match exactly (test/controller/apply-intent.test.ts) and as the baseline it is measured against
// (bench/apply-intent.ts). Hashes stored on live Applications were computed with it.
import { createHash } from 'node:crypto';
import { INTENT_HASH_ANNOTATION } from '../../src/controller/plan/apply-intent.js';
import type { Application } from '../../src/model/objects.js';

/** Canonical JSON as first written: entries filtered, sorted with a comparator, mapped and joined. */
export function referenceCanonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(referenceCanonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${referenceCanonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The create path of applyIntent as first written: a full structuredClone, then the hash over a copy with the annotation deleted. */
export function referenceApplyIntentOnCreate(desired: Application): Application {
  const intent = structuredClone(desired);
  const annotations: Record<string, string> = { ...intent.metadata.annotations };
  delete annotations[INTENT_HASH_ANNOTATION];
  const canonical = referenceCanonicalJson({ ...intent, metadata: { ...intent.metadata, annotations } });
  const hash = createHash('sha256').update(canonical).digest('hex').slice(0, 32);
  return { ...intent, metadata: { ...intent.metadata, annotations: { ...intent.metadata.annotations, [INTENT_HASH_ANNOTATION]: hash } } };
}
