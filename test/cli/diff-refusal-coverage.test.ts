import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { CASES } from './diff-refusal-cases.js';

/**
 * Every refusal the controller can make is a terminal failure (src/controller/reconcile/failure.ts): a
 * TerminalError or one of its subclasses, or a GitError of kind `invalid-input` or `unsupported`. This test
 * finds every place in src/ that raises one and checks that each is shown by a parity case of
 * diff-refusals.test.ts (the real reconciler and `appset diff` give the same reason and message), or says
 * why no offline preview can know it. A new refusal fails here until it gets a case or a reason.
 */

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** Where refusals are raised: by class (uniform wherever raised), or by class and file. */
type Where = string;

/** What shows each refusal: parity cases by rule, or why `appset diff` cannot know it offline; `sites` counts its raises. */
const COVERAGE: Record<Where, { readonly sites: number; readonly cases?: readonly string[]; readonly offline?: string }> = {
  // Raised by every generator for a spec it refuses, always at the generator stage.
  GeneratorSpecError: { sites: 52, cases: ['generator spec refused'] },
  InvalidApplicationsError: {
    sites: 1,
    cases: ['duplicate names', 'Argo CD validation: AppProject does not exist', 'Argo CD validation: unknown destination cluster'],
  },
  TemplatePatchProjectError: { sites: 2, cases: ["tenant: a templatePatch switches the Application's project"] },
  'TenancyViolation src/tenancy/tenant-policy.ts': {
    sites: 9,
    cases: [
      'tenant: no project',
      'tenant: templated project',
      'tenant: AppProject missing',
      'tenant: namespace not in sourceNamespaces',
      'tenant: generator repository URL refused as unsafe',
      "tenant: generator repository outside the project's sourceRepos",
      "tenant: a generator's template switches the Application's project",
      'tenant: Application source outside sourceRepos',
      'tenant: destination outside the project',
    ],
  },
  'TenancyViolation src/tenancy/quotas.ts': { sites: 2, cases: ['quota per ApplicationSet', 'quota per namespace'] },
  'TerminalError src/controller/reconcile/applicationset.ts': { sites: 1, cases: ['jqPathExpressions'] },
  'TerminalError src/controller/reconcile/plan-refusal.ts': { sites: 2, cases: ['ownership conflict', 'deletion guard'] },
  'TerminalError src/controller/rollout/rolling-sync.ts': { sites: 10, cases: ['RollingSync deletionOrder Reverse', 'RollingSync step malformed'] },
  'GitError src/git/input-validation.ts': { sites: 3, cases: ['refused repository URL'] },
  'GitError src/git/repo-access.ts': {
    sites: 1,
    offline: 'a tenant repository host that resolves to a refused address: the controller resolves it when it fetches; diff reads local --repo copies',
  },
  'GitError src/git/repo-cache.ts': { sites: 1, offline: "a listing without a resolved commit: the controller's internals" },
  'GitError src/git/scoped-credentials.ts': {
    sites: 1,
    offline: "a repository Secret's SSH key for a non-SSH URL: the controller's Secrets, not read by diff",
  },
  'GitError src/git/ssh-transport.ts': { sites: 2, offline: "a malformed SSH key in a repository Secret: the controller's credentials, not read by diff" },
  ScmRequestRefused: {
    sites: 19,
    offline:
      "SCM providers switched off or not allowed (--enable-scm-providers, --allowed-scm-providers), tenants' SCM Secrets and hosts: the running controller's settings and Secrets; diff asks providers under the platform's rules with the --clusters file's Secrets",
  },
  PluginRequestRefused: {
    sites: 5,
    offline:
      "a tenant's plugin ConfigMap, token Secret or address: the running controller's ConfigMaps and rules; diff calls plugins under the platform's rules",
  },
  DecisionResourceRefused: {
    sites: 1,
    offline:
      "a tenant's clusterDecisionResource outside its namespace or project: the running controller's resources; diff reads the --clusters file's objects",
  },
};

/** Classes raised whatever the file, keyed by class alone. */
const BY_CLASS = new Set([
  'GeneratorSpecError',
  'InvalidApplicationsError',
  'TemplatePatchProjectError',
  'ScmRequestRefused',
  'PluginRequestRefused',
  'DecisionResourceRefused',
]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every raise of a terminal error in src/, counted by where (class, or class and file). */
function terminalRaises(): Map<Where, number> {
  const texts = new Map(sources(join(ROOT, 'src')).map((path) => [relative(ROOT, path), readFileSync(path, 'utf8')]));
  const terminal = new Set(['TerminalError']);
  for (let grew = true; grew;) {
    grew = false;
    for (const text of texts.values())
      for (const [, name, parent] of text.matchAll(/class (\w+) extends (\w+)/g))
        if (name && parent && terminal.has(parent) && !terminal.has(name)) grew = terminal.add(name) !== undefined;
  }
  const raise = new RegExp(`\\bnew (${[...terminal].join('|')})\\(|\\bnew (GitError)\\(\\s*'(?:invalid-input|unsupported)'`, 'g');
  const found = new Map<Where, number>();
  for (const [file, text] of texts) {
    for (const match of text.matchAll(raise)) {
      const name = match[1] ?? match[2] ?? '';
      const where = BY_CLASS.has(name) ? name : `${name} ${file}`;
      found.set(where, (found.get(where) ?? 0) + 1);
    }
  }
  return found;
}

describe('the parity cases cover every refusal the controller can make', () => {
  it('every place that raises a refusal has a parity case, or a reason why diff cannot know it offline', () => {
    const found = Object.fromEntries([...terminalRaises()].sort());
    const expected = Object.fromEntries(
      Object.entries(COVERAGE)
        .map(([where, { sites }]) => [where, sites] as const)
        .sort(),
    );
    assert.deepEqual(found, expected, 'a refusal was added, moved or removed: give it a case in diff-refusal-cases.ts (or an offline reason) here');
  });

  it('every case named here exists, and every case is named here (or is not a refusal)', () => {
    const rules = new Set(CASES.map((c) => c.rule));
    const named = Object.values(COVERAGE).flatMap((c) => c.cases ?? []);
    for (const rule of named) assert.ok(rules.has(rule), `no parity case "${rule}"`);
    const refusals = CASES.filter((c) => (c.result ?? 'refused') === 'refused').map((c) => c.rule);
    assert.deepEqual(
      refusals.filter((rule) => !named.includes(rule)),
      [],
    );
  });
});
