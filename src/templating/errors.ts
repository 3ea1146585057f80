/** Errors raised while translating or executing one template string; the tree renderer adds the field. */

/** Something in a template string the user must change; the message says what and where. */
export class TemplateProblem extends Error {
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
