import { MissingParameterError, RenderLimitError, TemplateProblem } from './template-problem.js';

/** Per-render state the runtime helpers read through Handlebars' `@data`: mode, budget, variables. */

/**
 * How a missing parameter is treated:
 * - `strict` (our default): an error when it is printed or passed to a function other than a guard;
 * - `error` (goTemplateOptions `missingkey=error`): an error as soon as it is referenced, as in Go;
 * - `keep` (the opt-out): Argo CD's behaviour, the fasttemplate placeholder stays as written and Go
 *   prints `<no value>`.
 */
export type MissingMode = 'strict' | 'error' | 'keep';

/** The time and output allowance of one ApplicationSet's render, shared by all its strings. */
export class RenderBudget {
  private used = 0;
  private readonly deadline: number;
  constructor(
    readonly timeLimitMs: number,
    readonly maxOutputBytes: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.deadline = now() + timeLimitMs;
  }

  /** Counts `text` against the output limit and checks the clock; throws when either is exceeded. */
  charge(text: string): void {
    this.chargeLength(text.length);
  }

  /** Counts `length` output characters against the limit (a remembered render's output) and checks the clock. */
  chargeLength(length: number): void {
    this.used += length;
    if (this.used > this.maxOutputBytes) {
      throw new RenderLimitError(`rendered output exceeds the limit of ${this.maxOutputBytes} characters for this ApplicationSet`);
    }
    this.checkTime();
  }

  /** Output characters counted so far. */
  get usedChars(): number {
    return this.used;
  }

  /** Throws if `pending` more characters would exceed the output limit (checked while a loop builds text). */
  checkPending(pending: number): void {
    if (this.used + pending > this.maxOutputBytes) {
      throw new RenderLimitError(`rendered output exceeds the limit of ${this.maxOutputBytes} characters for this ApplicationSet`);
    }
    this.checkTime();
  }

  /** Throws when the render has run past its time limit. */
  checkTime(): void {
    if (this.now() > this.deadline) throw new RenderLimitError(`rendering took longer than the limit of ${this.timeLimitMs} ms for this ApplicationSet`);
  }

  /** Characters rendered so far. */
  get outputSize(): number {
    return this.used;
  }
}

/** What one template execution needs besides the parameters. */
export interface RenderScope {
  missing: MissingMode;
  /** Rendering `templatePatch` text: a raw parameter containing a line break is refused (it would add YAML structure). */
  patch: boolean;
  budget: RenderBudget;
}

/** The `@data` frame of our templates. */
export interface TemplateData {
  root: unknown;
  scope: RenderScope;
  goDot: unknown;
  goVars: Readonly<Record<string, unknown>>;
}

/** The data frame of the running template, from a helper's options. */
export function dataOf(options: unknown): TemplateData {
  const data = (options as { data?: TemplateData } | undefined)?.data;
  if (!data?.scope) throw new TemplateProblem('internal: template data is missing');
  return data;
}

/** A missing value met where it must not be: an error naming it (strict), or `undefined` (keep). */
export function refuseMissing(scope: RenderScope, reference: string, detail: string): void {
  if (scope.missing !== 'keep') throw new MissingParameterError(reference, detail);
}
