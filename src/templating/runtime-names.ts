import { TEMPLATE_FUNCTIONS } from './functions.js';

/** Names of the Handlebars helpers the translated templates call; user text never chooses one. */
export const RUNTIME = {
  print: 'go_print',
  field: 'go_field',
  get: 'go_get',
  if: 'go_if',
  with: 'go_with',
  range: 'go_range',
  param: 'ft_param',
} as const;

/** True if `name` is a template function (sprig/Argo CD/Go builtin) this renderer provides. */
export function isTemplateFunction(name: string): boolean {
  return Object.hasOwn(TEMPLATE_FUNCTIONS, name);
}

/** The Handlebars helper name under which template function `name` is registered. */
export function functionHelperName(name: string): string {
  return `fn_${name}`;
}
