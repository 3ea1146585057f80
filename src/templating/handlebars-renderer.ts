import type { ParamSet } from '../model/params.js';
import { DEFAULT_RENDER_LIMITS, type RenderLimits } from '../model/applicationset-types.js';
import { TemplateEngine } from './engine.js';
import { renderTree } from './render-tree.js';
import type { Renderer, RenderOptions } from './renderer.js';
import { RenderBudget, type MissingMode } from './scope.js';

/** The {@link Renderer} contract on the shared template engine: one template object, one parameter set. */
export class HandlebarsRenderer implements Renderer {
  constructor(
    private readonly engine = new TemplateEngine(),
    private readonly limits: RenderLimits = DEFAULT_RENDER_LIMITS,
  ) {}

  /** Renders the string leaves (and keys) of `template`; throws RenderError naming field and parameter. */
  render(template: unknown, params: ParamSet, options: RenderOptions): unknown {
    const missing: MissingMode =
      options.goTemplate && options.goTemplateOptions.includes('missingkey=error') ? 'error' : options.keepMissingParameters ? 'keep' : 'strict';
    const scope = { missing, patch: false, budget: new RenderBudget(this.limits.timeLimitMs, this.limits.maxOutputBytes) };
    const style = options.goTemplate ? 'goTemplate' : 'fasttemplate';
    return renderTree(template, undefined, (text) => this.engine.render(style, text, params, scope));
  }
}
