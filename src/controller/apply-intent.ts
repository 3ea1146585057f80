import { createHash } from 'node:crypto';
import type { Application } from './objects.js';
import { getAt, parsePointer, removeAt, setAt } from './json-pointer.js';

/** Annotations Argo CD keeps from the live Application whatever the template says. */
export const DEFAULT_PRESERVED_ANNOTATIONS = ['notified.notifications.argoproj.io', 'argocd.argoproj.io/refresh', 'argocd.argoproj.io/hydrate'] as const;

/** Annotation holding a hash of what the controller last applied, so fields dropped from a template are noticed. */
export const INTENT_HASH_ANNOTATION = 'appset-controller.io/intent-hash';

/** `spec.preservedFields` of an ApplicationSet. */
export interface PreservedFields {
  readonly annotations?: readonly string[];
  readonly labels?: readonly string[];
}

/** One `spec.ignoreApplicationDifferences` rule. */
export interface IgnoreDifferencesRule {
  readonly name?: string;
  readonly jsonPointers?: readonly string[];
  readonly jqPathExpressions?: readonly string[];
}

/** What an ApplicationSet says about fields that belong to the live object rather than the template. */
export interface LiveFieldRules {
  readonly preservedFields?: PreservedFields;
  readonly ignoreDifferences?: readonly IgnoreDifferencesRule[];
}

/**
 * The object to server-side apply over `live`: the desired Application, minus preserved labels and
 * annotations the live object already has (their owners keep them), with ignored paths set to the live
 * values (so applying keeps them), stamped with the hash of this intent. On create (`live` undefined)
 * the desired object is used as is, as Argo CD does.
 */
export function applyIntent(desired: Application, live: Application | undefined, rules: LiveFieldRules): Application {
  const intent = structuredClone(desired) as unknown as Record<string, unknown> & { metadata: MutableMeta };
  if (live) {
    const metadata = intent.metadata;
    dropPreserved(metadata.annotations, live.metadata.annotations, [...DEFAULT_PRESERVED_ANNOTATIONS, ...(rules.preservedFields?.annotations ?? [])]);
    dropPreserved(metadata.labels, live.metadata.labels, rules.preservedFields?.labels ?? []);
    for (const rule of rules.ignoreDifferences ?? []) {
      if (rule.name && rule.name !== desired.metadata.name) continue;
      for (const pointer of rule.jsonPointers ?? []) keepLiveValue(intent, live, pointer);
    }
  }
  const result = intent as unknown as Application;
  const annotations = { ...intent.metadata.annotations, [INTENT_HASH_ANNOTATION]: intentHash(result) };
  return { ...result, metadata: { ...result.metadata, annotations } };
}

type MutableMeta = { labels?: Record<string, string>; annotations?: Record<string, string> };

function dropPreserved(ours: Record<string, string> | undefined, theirs: Readonly<Record<string, string>> | undefined, keys: readonly string[]): void {
  if (!ours || !theirs) return;
  for (const key of keys) if (Object.hasOwn(theirs, key)) delete ours[key];
}

function keepLiveValue(intent: Record<string, unknown>, live: Application, pointer: string): void {
  const tokens = parsePointer(pointer);
  if (tokens[0] !== 'spec' && tokens[0] !== 'metadata') return; // only these are ours to write
  const liveValue = getAt(live, tokens);
  if (liveValue === undefined) removeAt(intent, tokens);
  else setAt(intent, tokens, structuredClone(liveValue));
}

/** A stable hash of an intent (keys sorted, the hash annotation itself left out). */
export function intentHash(intent: Application): string {
  const annotations = { ...intent.metadata.annotations };
  delete annotations[INTENT_HASH_ANNOTATION];
  const canonical = canonicalJson({ ...intent, metadata: { ...intent.metadata, annotations } });
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
