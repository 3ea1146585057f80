import { GeneratorSpecError, readArray, readObject, readString, readStringMap } from './spec-reading.js';

/** One `matchExpressions` entry of a Kubernetes label selector. */
export interface SelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values: readonly string[];
}

/** A parsed Kubernetes `LabelSelector`. */
export interface LabelSelector {
  matchLabels: Readonly<Record<string, string>>;
  matchExpressions: readonly SelectorRequirement[];
}

const OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist']);

/** Parses a `LabelSelector` (absent = empty, which matches everything); refuses unknown operators. */
export function parseLabelSelector(value: unknown, field: string): LabelSelector {
  if (value === undefined || value === null) return { matchLabels: {}, matchExpressions: [] };
  const spec = readObject(value, field);
  const matchLabels = readStringMap(spec.matchLabels, `${field}.matchLabels`);
  const matchExpressions = readArray(spec.matchExpressions, `${field}.matchExpressions`).map((raw, i) => {
    const where = `${field}.matchExpressions[${i}]`;
    const entry = readObject(raw, where);
    const operator = readString(entry.operator, `${where}.operator`);
    if (!OPERATORS.has(operator)) throw new GeneratorSpecError(`${where}.operator`, `must be In, NotIn, Exists or DoesNotExist, got "${operator}"`);
    const values = readArray(entry.values, `${where}.values`).map((v, j) => readString(v, `${where}.values[${j}]`));
    if ((operator === 'In' || operator === 'NotIn') && values.length === 0)
      throw new GeneratorSpecError(`${where}.values`, `must not be empty for ${operator}`);
    if ((operator === 'Exists' || operator === 'DoesNotExist') && values.length > 0)
      throw new GeneratorSpecError(`${where}.values`, `must be empty for ${operator}`);
    return { key: readString(entry.key, `${where}.key`), operator: operator as SelectorRequirement['operator'], values };
  });
  return { matchLabels, matchExpressions };
}

/** True when the selector has no requirement at all. */
export function isEmptySelector(selector: LabelSelector): boolean {
  return Object.keys(selector.matchLabels).length === 0 && selector.matchExpressions.length === 0;
}

/** Kubernetes label-selector semantics: every `matchLabels` pair and every expression must hold. */
export function matchesSelector(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  for (const [key, value] of Object.entries(selector.matchLabels)) {
    if (labels[key] !== value) return false;
  }
  return selector.matchExpressions.every((req) => {
    const present = Object.hasOwn(labels, req.key);
    const value = labels[req.key];
    switch (req.operator) {
      case 'In':
        return present && value !== undefined && req.values.includes(value);
      case 'NotIn':
        return !present || value === undefined || !req.values.includes(value);
      case 'Exists':
        return present;
      case 'DoesNotExist':
        return !present;
    }
  });
}

/** The selector in the API server's query syntax (`env=prod,tier in (a,b),!legacy`); empty matches everything. */
export function formatLabelSelector(selector: LabelSelector): string {
  const labels = Object.entries(selector.matchLabels).map(([key, value]) => `${key}=${value}`);
  const expressions = selector.matchExpressions.map((req) => {
    switch (req.operator) {
      case 'In':
        return `${req.key} in (${req.values.join(',')})`;
      case 'NotIn':
        return `${req.key} notin (${req.values.join(',')})`;
      case 'Exists':
        return req.key;
      case 'DoesNotExist':
        return `!${req.key}`;
    }
  });
  return [...labels, ...expressions].join(',');
}
