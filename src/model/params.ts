/**
 * One parameter set produced by a generator: a nested object, so `path.basename` is
 * `params.path.basename`. There are never flat and nested duplicates of the same value.
 *
 * The shapes follow Argo CD's Go-template (`goTemplate: true`) parameters, which are nested too.
 * Fasttemplate names map onto them as follows (the renderer's compatibility layer does this):
 * `{{path}}` is `path.path`, `{{path[n]}}` is `path.segments[n]`, and with `pathParamPrefix: p`
 * `{{p.path}}` is `p.path.path`. Every other dotted name is the nested path itself
 * (`{{metadata.labels.env}}` is `metadata.labels.env`).
 */
export type ParamSet = { readonly [key: string]: ParamValue };

/** A value inside a {@link ParamSet}. */
export type ParamValue = string | number | boolean | null | readonly ParamValue[] | ParamSet;
