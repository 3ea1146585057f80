import { TemplateEngine, type TemplateStyle } from '../../src/templating/engine.js';
import { RenderBudget, type MissingMode } from '../../src/templating/scope.js';

// A generous time budget: on a loaded 2-core machine a legitimate 1000-action template can take seconds; the
// time limit itself is tested with explicit budgets.
/** Test helper: renders one template string with one engine shared by a test file. */
export function stringRenderer(engine = new TemplateEngine()) {
  return (style: TemplateStyle, text: string, params: unknown, missing: MissingMode = 'strict', patch = false): string =>
    engine.render(style, text, params, { missing, patch, budget: new RenderBudget(60_000, 10_000_000) });
}

/** The git directory generator's parameters for `apps/guestbook`, nested as generators here produce them. */
export const gitDirectoryParams = {
  path: { path: 'apps/guestbook', basename: 'guestbook', basenameNormalized: 'guestbook', segments: ['apps', 'guestbook'] },
};

/** The cluster generator's parameters for one cluster Secret. */
export const clusterParams = {
  name: 'staging-east',
  nameNormalized: 'staging-east',
  server: 'https://10.0.0.1:6443',
  metadata: { labels: { environment: 'staging', 'app.kubernetes.io/part-of': 'shop' }, annotations: { team: 'payments' } },
};
