/**
 * One parameter set produced by a generator. Generators build nested objects (`params.path.basename`), the
 * shape of Argo CD's Go-template (`goTemplate: true`) parameters. With fasttemplate, Argo CD's parameters are
 * one flat map (`path.basename`, `path[0]`, `values.env` are names), and the generator registry converts each
 * generator's output to that form before matrix, merge and selectors see it (generators/fasttemplate-params.ts).
 */
export type ParamSet = { readonly [key: string]: ParamValue };

/** A value inside a {@link ParamSet}. */
export type ParamValue = string | number | boolean | null | readonly ParamValue[] | ParamSet;
