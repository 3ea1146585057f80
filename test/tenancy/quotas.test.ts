import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkApplicationQuotas } from '../../src/tenancy/quotas.js';
import { TenancyViolation } from '../../src/tenancy/tenant-policy.js';

describe('Application quotas', () => {
  const quotas = { perApplicationSet: 3, perNamespace: 5 };
  it('allows up to the limits', () => {
    checkApplicationQuotas(quotas, { namespace: 't', desired: 3, othersInNamespace: 2 });
    checkApplicationQuotas({ perApplicationSet: 0, perNamespace: 0 }, { namespace: 't', desired: 1e6, othersInNamespace: 1e6 });
  });
  it('refuses more Applications than one ApplicationSet may own, naming the rule', () => {
    assert.throws(
      () => checkApplicationQuotas(quotas, { namespace: 't', desired: 4, othersInNamespace: 0 }),
      (e: unknown) =>
        e instanceof TenancyViolation && /4 Applications, over the limit of 3 per ApplicationSet \(--max-applications-per-applicationset\)/.test(e.message),
    );
  });
  it('refuses a namespace total over its limit, counting what others own', () => {
    assert.throws(
      () => checkApplicationQuotas(quotas, { namespace: 't', desired: 2, othersInNamespace: 4 }),
      (e: unknown) => e instanceof TenancyViolation && /namespace t would hold 6 Applications .* limit of 5 per namespace/.test(e.message),
    );
  });
});
