/** One sample of a Prometheus text exposition: its labels and value. */
export interface MetricSample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The samples of metric `name` (exact name, e.g. `argocd_appset_reconcile_count`) in exposition `text`. */
export function metricSamples(text: string, name: string): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const match = /^[^{ ]+(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[1] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1] ?? ''] = pair[2] ?? '';
    samples.push({ labels, value: Number(match[2]) });
  }
  return samples;
}

/** Sums samples of `name` per the value of label `by` (e.g. reconciles per ApplicationSet name). */
export function sumBy(text: string, name: string, by: string, where: (labels: Readonly<Record<string, string>>) => boolean = () => true): Map<string, number> {
  const sums = new Map<string, number>();
  for (const sample of metricSamples(text, name)) {
    if (!where(sample.labels)) continue;
    const key = sample.labels[by] ?? '';
    sums.set(key, (sums.get(key) ?? 0) + sample.value);
  }
  return sums;
}
