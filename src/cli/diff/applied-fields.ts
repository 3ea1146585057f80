import { FIELD_MANAGER } from '../../kube/field-manager.js';
import type { Application } from '../../model/objects.js';

/**
 * What the controller's next server-side apply can remove from a live Application: the label and annotation keys
 * and finalizers its apply alone owns (in `metadata.managedFields`). An apply that leaves out a field it owned
 * removes it, unless another field manager owns it too; fields only others own stay whatever the apply says.
 */
export interface AppliedFields {
  readonly labels: ReadonlySet<string>;
  readonly annotations: ReadonlySet<string>;
  readonly finalizers: ReadonlySet<string>;
}

interface ManagedFieldsEntry {
  readonly manager?: string;
  readonly operation?: string;
  readonly subresource?: string;
  readonly fieldsV1?: Record<string, unknown>;
}

const NONE: AppliedFields = { labels: new Set(), annotations: new Set(), finalizers: new Set() };

/** The fields of `live` that only the controller's apply owns; none when the object carries no managedFields. */
export function fieldsOnlyAppliedByController(live: Application): AppliedFields {
  const raw = (live.metadata as { managedFields?: unknown }).managedFields;
  if (!Array.isArray(raw)) return NONE;
  const entries = raw as readonly ManagedFieldsEntry[];
  const isOurs = (e: ManagedFieldsEntry): boolean => e.manager === FIELD_MANAGER && e.operation === 'Apply' && !e.subresource;
  const ours = entries.filter(isOurs).map(metadataFields);
  const theirs = entries.filter((e) => !isOurs(e)).map(metadataFields);
  const only = (pick: (m: MetadataFields) => Set<string>): Set<string> => {
    const others = new Set(theirs.flatMap((m) => [...pick(m)]));
    return new Set(ours.flatMap((m) => [...pick(m)]).filter((key) => !others.has(key)));
  };
  return { labels: only((m) => m.labels), annotations: only((m) => m.annotations), finalizers: only((m) => m.finalizers) };
}

interface MetadataFields {
  readonly labels: Set<string>;
  readonly annotations: Set<string>;
  readonly finalizers: Set<string>;
}

/** The label and annotation keys (`f:<key>`) and finalizers (`v:"<value>"`) one managedFields entry owns. */
function metadataFields(entry: ManagedFieldsEntry): MetadataFields {
  const metadata = asObject(entry.fieldsV1?.['f:metadata']);
  const keys = (field: string, prefix: string): string[] =>
    Object.keys(asObject(metadata[field]))
      .filter((key) => key.startsWith(prefix))
      .map((key) => key.slice(prefix.length));
  const finalizers = keys('f:finalizers', 'v:').flatMap((value) => {
    try {
      const parsed: unknown = JSON.parse(value);
      return typeof parsed === 'string' ? [parsed] : [];
    } catch {
      return [];
    }
  });
  return { labels: new Set(keys('f:labels', 'f:')), annotations: new Set(keys('f:annotations', 'f:')), finalizers: new Set(finalizers) };
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
