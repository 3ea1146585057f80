import { hash } from 'node:crypto';
import type { Application } from '../../model/objects.js';
import { canonicalJson } from './canonical-json.js';
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
 * annotations the live object holds with another value (their owners keep them), with ignored paths set to the live
 * values (so applying keeps them), stamped with the hash of this intent. On create (`live` undefined)
 * the desired object is used as is, as Argo CD does.
 */
export function applyIntent(desired: Application, live: Application | undefined, rules: LiveFieldRules): Application {
  // `desired` is never written to. The intent copies only what it changes: the label and annotation maps
  // always, the whole object only when an ignore rule may rewrite paths anywhere in it. With a full
  // structuredClone per Application (and the array-built canonical JSON) the stamp cost 22 µs per
  // Application on create, now 14 (bench/apply-intent.ts).
  let intent: Application = desired;
  if (live) {
    const pointerRules = (rules.ignoreDifferences ?? []).filter(
      (rule) => (!rule.name || rule.name === desired.metadata.name) && (rule.jsonPointers?.length ?? 0) > 0,
    );
    const copy = pointerRules.length > 0 ? structuredClone<Application>(desired) : { ...desired, metadata: { ...desired.metadata } };
    const metadata = copy.metadata as MutableMeta;
    if (metadata.annotations) metadata.annotations = { ...metadata.annotations };
    if (metadata.labels) metadata.labels = { ...metadata.labels };
    dropPreserved(metadata.annotations, live.metadata.annotations, [...DEFAULT_PRESERVED_ANNOTATIONS, ...(rules.preservedFields?.annotations ?? [])]);
    dropPreserved(metadata.labels, live.metadata.labels, rules.preservedFields?.labels ?? []);
    for (const rule of pointerRules) for (const pointer of rule.jsonPointers ?? []) keepLiveValue(copy as unknown as Record<string, unknown>, live, pointer);
    intent = copy;
  }
  const annotations = { ...intent.metadata.annotations, [INTENT_HASH_ANNOTATION]: intentHash(intent) };
  return { ...intent, metadata: { ...intent.metadata, annotations } };
}

type MutableMeta = { labels?: Record<string, string>; annotations?: Record<string, string> };

/**
 * Leaves a preserved key out of the apply when the live object holds another value: whoever set it owns it
 * now, and the apply leaves it alone. A live value equal to ours stays in the apply, because leaving out a
 * key this apply alone owns would make the API server remove it (server-side apply drops fields their
 * only manager stops applying): a preserved label the template set would vanish on the next update.
 */
function dropPreserved(ours: Record<string, string> | undefined, theirs: Readonly<Record<string, string>> | undefined, keys: readonly string[]): void {
  if (!ours || !theirs) return;
  for (const key of keys) if (Object.hasOwn(theirs, key) && theirs[key] !== ours[key]) delete ours[key];
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
  const annotations: Record<string, string> = {};
  for (const [key, value] of Object.entries(intent.metadata.annotations ?? {})) if (key !== INTENT_HASH_ANNOTATION) annotations[key] = value;
  const canonical = canonicalJson({ ...intent, metadata: { ...intent.metadata, annotations } });
  return hash('sha256', canonical, 'hex').slice(0, 32);
}
