import type { ParamSet } from '../model/params.js';
import { AppsetError } from '../model/errors.js';

/** Where a template string sits in the template object, e.g. `spec.source.path`, for error messages. */
export type TemplateFieldPath = string;

/**
 * Renders the string leaves of an Application template with one parameter set. Structure and value
 * types of the template are never produced by a parameter, only string contents.
 */
export interface Renderer {
  render(template: unknown, params: ParamSet, options: RenderOptions): unknown;
}

/** How an ApplicationSet asked for its templates to be read. */
export interface RenderOptions {
  /** `spec.goTemplate`: Go-template syntax (`{{.path.basename}}`) instead of fasttemplate. */
  goTemplate: boolean;
  /** `spec.goTemplateOptions`, e.g. `missingkey=error`. */
  goTemplateOptions: readonly string[];
  /**
   * The opt-out of strict missing parameters (annotation `appset-controller/missing-parameters: keep`):
   * Argo CD's behaviour, an unknown fasttemplate placeholder stays as written and Go prints `<no value>`.
   */
  keepMissingParameters?: boolean;
}

/** A template that cannot be rendered; names the parameter or construct and the template field. */
export class RenderError extends AppsetError {
  override readonly name: string = 'RenderError';
  constructor(
    message: string,
    readonly field: TemplateFieldPath,
    cause?: unknown,
  ) {
    super(field ? `${field}: ${message}` : message, cause === undefined ? undefined : { cause });
  }
}
