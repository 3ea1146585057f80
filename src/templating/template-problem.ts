import { AppsetError } from '../model/errors.js';
/** Errors raised while translating or executing one template string; the tree renderer adds the field. */

/** Something in a template string the user must change; the message says what and where. */
export class TemplateProblem extends AppsetError {
  override readonly name: string = 'TemplateProblem';
}

/** A template referenced a parameter the parameter set does not have. */
export class MissingParameterError extends TemplateProblem {
  override readonly name = 'MissingParameterError';
  constructor(
    /** The parameter as written, e.g. `.path.basename` or `path.basename`. */
    readonly parameter: string,
    detail = '',
  ) {
    super(`parameter '${parameter}' is missing from the parameter set${detail}`);
  }
}

/** The render of one ApplicationSet exceeded its time or output budget. */
export class RenderLimitError extends TemplateProblem {
  override readonly name = 'RenderLimitError';
}

/**
 * Most `{{ }}` actions one template string may hold. Handlebars' compiler slows down more than linearly
 * with program size (seconds for tens of thousands of actions, before any render clock runs), and real
 * manifests use a handful per field; a generous cap keeps compilation bounded.
 */
export const MAX_ACTIONS_PER_TEMPLATE = 1_000;

/** Refuses a template string with more actions than {@link MAX_ACTIONS_PER_TEMPLATE}. */
export function checkActionCount(count: number): void {
  if (count > MAX_ACTIONS_PER_TEMPLATE) {
    throw new TemplateProblem(`the template holds ${count} '{{ }}' actions; at most ${MAX_ACTIONS_PER_TEMPLATE} are supported in one string`);
  }
}
