import { TEMPLATE_FUNCTIONS } from './functions.js';
import { refusalReason } from './functions-refused.js';

/**
 * Names of the Handlebars helpers the translated templates call; user text never chooses one. Template
 * functions all go through one `go_call` helper (name as first argument) because Handlebars re-wraps every
 * registered helper on each template call, so the number of registered helpers is a per-render cost.
 */
export const RUNTIME = {
  print: 'go_print',
  field: 'go_field',
  get: 'go_get',
  if: 'go_if',
  with: 'go_with',
  range: 'go_range',
  param: 'ft_param',
  call: 'go_call',
  int: 'go_int',
} as const;

/** True if `name` is a template function (sprig/Argo CD/Go builtin) this renderer provides. */
export function isTemplateFunction(name: string): boolean {
  return Object.hasOwn(TEMPLATE_FUNCTIONS, name);
}

/** Why a template may not call `name` (a refused or unknown function), or undefined if it may. */
export function functionProblem(name: string): string | undefined {
  if (isTemplateFunction(name)) return undefined;
  const reason = refusalReason(name);
  if (reason !== undefined) return `function '${name}' is refused: ${reason}`;
  return `function '${name}' is not supported (see docs/templating.md for the supported functions)`;
}
