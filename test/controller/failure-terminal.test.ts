import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReconcileFailure } from '../../src/controller/reconcile/failure.js';
import { TerminalError } from '../../src/model/action.js';
import { TenancyViolation } from '../../src/tenancy/tenant-policy.js';
import { TemplatePatchProjectError } from '../../src/templating/render-applicationset.js';
import { RenderError } from '../../src/templating/renderer.js';

const stage = { reason: 'RenderTemplateParamsError', parametersGenerated: true, requeueAfterMs: 180_000 };

describe('which reconcile failures are refusals', () => {
  it('a tenancy violation and a templatePatch that changes the project are terminal; another render error is retried', () => {
    assert.equal(new ReconcileFailure(stage, new TenancyViolation('x'), undefined).terminal, true);
    assert.equal(new ReconcileFailure(stage, new TemplatePatchProjectError('x'), undefined).terminal, true);
    assert.equal(new ReconcileFailure(stage, new RenderError('x', 'spec'), undefined).terminal, false);
  });

  it("a refusal without its own requeue is looked at again after the stage's; its own wins; a retried failure has none", () => {
    assert.equal(new ReconcileFailure(stage, new TemplatePatchProjectError('x'), undefined).requeueAfterMs, 180_000);
    assert.equal(new ReconcileFailure(stage, new TerminalError('x', { requeueAfterMs: 5_000 }), undefined).requeueAfterMs, 5_000);
    assert.equal(new ReconcileFailure(stage, new RenderError('x', 'spec'), undefined).requeueAfterMs, undefined);
    assert.equal(new ReconcileFailure({ reason: 'r', parametersGenerated: true }, new TenancyViolation('x'), undefined).requeueAfterMs, undefined);
  });
});
