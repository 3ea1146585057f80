import { createRequire } from 'node:module';
import type HandlebarsModule from 'handlebars';
import { TemplateProblem } from './template-problem.js';
import { translateFasttemplate } from './fasttemplate.js';
import { translateGoTemplate } from './gotemplate/translate.js';
import type { HbsNode } from './hbs-ast.js';
import { compileDirect } from './direct-template.js';
import { runtimeHelpers } from './runtime-helpers.js';
import type { RenderScope, TemplateData } from './scope.js';

// The package's own one-file build of the same version, not its CommonJS tree (`import ... from 'handlebars'`):
// that tree is 33 modules with inline source maps, and one dash in a comment makes V8 keep its code generator's
// source as two bytes a character; 2.0 MiB of heap in every replica against 0.6 (Node 24, after a collection).
const Handlebars = createRequire(import.meta.url)('handlebars/dist/handlebars.min.js') as typeof HandlebarsModule;

/** Which syntax a template string is written in. */
export type TemplateStyle = 'fasttemplate' | 'goTemplate';

type Compiled = (context: unknown, options: HandlebarsModule.RuntimeOptions) => string;
type CacheEntry = { compiled: Compiled } | { problem: TemplateProblem };

/** Default number of compiled template strings kept per engine. */
export const DEFAULT_TEMPLATE_CACHE_SIZE = 5_000;

/**
 * An isolated Handlebars environment (`Handlebars.create()`: nothing registered globally, no built-in
 * helpers or partials) with our runtime helpers, and a bounded first-in-first-out cache of compiled
 * templates keyed by style and text. Translation failures are cached too, so a bad template is parsed once.
 * A cache size of 0 compiles every string on every render (the benchmark's baseline).
 */
export class TemplateEngine {
  private readonly handlebars = Handlebars.create();
  /** One map per style, keyed by the text itself: a hit costs no key building (the text's hash is cached). */
  private readonly cache: Record<TemplateStyle, Map<string, CacheEntry>> = { fasttemplate: new Map(), goTemplate: new Map() };
  private readonly knownHelpers: Record<string, boolean> = {};
  private readonly helpers = runtimeHelpers();

  constructor(private readonly cacheSize = DEFAULT_TEMPLATE_CACHE_SIZE) {
    for (const name of Object.keys(this.handlebars.helpers)) this.handlebars.unregisterHelper(name);
    for (const [name, helper] of Object.entries(this.helpers)) {
      this.handlebars.registerHelper(name, helper as HandlebarsModule.HelperDelegate);
      this.knownHelpers[name] = true;
    }
  }

  /** Renders one template string with `params` as Go's `.`/`$` and fasttemplate's names. */
  render(style: TemplateStyle, text: string, params: unknown, scope: RenderScope): string {
    if (!text.includes('{{')) {
      // Plain text in both styles: nothing to translate or run.
      scope.budget.charge(text);
      return text;
    }
    const data: TemplateData = { root: params, scope, goDot: params, goVars: {} };
    const output = this.compiled(style, text)(params, {
      data,
      allowProtoPropertiesByDefault: false,
      allowProtoMethodsByDefault: false,
      allowCallsToHelperMissing: false,
    });
    // Charged once, on the whole result, so literal text repeated by loops counts too.
    scope.budget.charge(output);
    return output;
  }

  /** Number of compiled templates currently cached. */
  get cachedTemplates(): number {
    return this.cache.fasttemplate.size + this.cache.goTemplate.size;
  }

  /** True if the compiled form of `text` is in the cache. */
  isCached(style: TemplateStyle, text: string): boolean {
    return this.cache[style].has(text);
  }

  /** The compiled template for `text`, from the cache when possible. */
  private compiled(style: TemplateStyle, text: string): Compiled {
    if (this.cacheSize <= 0) {
      const uncached = this.compile(style, text);
      if ('problem' in uncached) throw uncached.problem;
      return uncached.compiled;
    }
    const cache = this.cache[style];
    let entry = cache.get(text);
    if (!entry) {
      entry = this.compile(style, text);
      // First in, first out over both styles together: a hit costs a lookup only; an evicted hot template is compiled once more.
      if (this.cachedTemplates >= this.cacheSize) this.evictOldest();
      cache.set(text, entry);
    }
    if ('problem' in entry) throw entry.problem;
    return entry.compiled;
  }

  /** Drops the oldest entry of the larger style's map (FIFO per style; the bound holds for both together). */
  private evictOldest(): void {
    const { fasttemplate, goTemplate } = this.cache;
    const fullest = fasttemplate.size >= goTemplate.size ? fasttemplate : goTemplate;
    const oldest = fullest.keys().next();
    if (!oldest.done) fullest.delete(oldest.value);
  }

  /** Translates and compiles, without the cache (also used by the benchmark's baseline). */
  compile(style: TemplateStyle, text: string): CacheEntry {
    let ast: HbsNode;
    try {
      ast = style === 'goTemplate' ? translateGoTemplate(text) : translateFasttemplate(text);
    } catch (error) {
      if (error instanceof TemplateProblem) return { problem: error };
      throw error;
    }
    // Block-free programs run directly (same helpers, same result, without Handlebars' per-call set-up).
    const direct = compileDirect(ast, this.helpers);
    if (direct) return { compiled: direct };
    const compiled = this.handlebars.compile(ast, {
      noEscape: true,
      strict: false,
      data: true,
      ignoreStandalone: true,
      knownHelpers: this.knownHelpers,
      knownHelpersOnly: true,
    }) as Compiled;
    return { compiled };
  }
}
