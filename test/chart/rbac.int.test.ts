import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { join } from 'node:path';
import { CHART_DIR, renderChart } from './helm.js';
import { configGrants, decisionGrants, grantsOf, watchGrants, writeGrants } from './rbac-grants.js';

const ALL_ON = join(CHART_DIR, 'ci', 'all-on-values.yaml');
const sorted = (items: string[]): string[] => [...new Set(items)].sort();

describe('chart RBAC grants exactly what the controller calls, nothing more', () => {
  it('only its own namespace: namespaced Roles, nothing cluster-wide', async () => {
    const objects = await renderChart({ namespace: 'argocd' });
    assert.deepEqual(
      grantsOf(objects, { namespace: 'argocd', name: 'appset-appset-controller' }),
      sorted([...configGrants('argocd'), ...watchGrants('argocd'), ...writeGrants('argocd')]),
    );
    assert.deepEqual(
      objects.filter((o) => o.kind === 'ClusterRole' || o.kind === 'ClusterRoleBinding').map((o) => o.metadata.name),
      [],
    );
  });

  it('named tenant namespaces: cluster-wide watch, writes only in the named namespaces', async () => {
    const objects = await renderChart({ namespace: 'argocd', set: ['controller.applicationSetNamespaces={team-a,team-b}'] });
    assert.deepEqual(
      grantsOf(objects, { namespace: 'argocd', name: 'appset-appset-controller' }),
      sorted([...configGrants('argocd'), ...watchGrants('*'), ...writeGrants('argocd'), ...writeGrants('team-a'), ...writeGrants('team-b')]),
    );
  });

  it('glob tenant namespaces (every option on): cluster-wide watch and writes, config still namespaced', async () => {
    const objects = await renderChart({ namespace: 'platform', valuesFiles: [ALL_ON] });
    assert.deepEqual(
      grantsOf(objects, { namespace: 'platform', name: 'appset-sa' }),
      sorted([...configGrants('argocd'), ...watchGrants('*'), ...writeGrants('*'), ...decisionGrants('argocd', '*')]),
    );
  });

  it('grants nothing with rbac.create false', async () => {
    const objects = await renderChart({ set: ['rbac.create=false'] });
    assert.deepEqual(
      objects.filter((o) => /Role/.test(o.kind)).map((o) => o.kind),
      [],
    );
  });
});
