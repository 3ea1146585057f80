import type { ParamSet, ParamValue } from '../model/params.js';
import type { PluginParameters } from '../scm/plugin/plugin-answer.js';
import { fileParamsAsFasttemplate } from './fasttemplate-params.js';
import { goTypedValue } from './go-typed.js';
import { GoRawJson } from '../templating/go-raw-json.js';
import type { Generator, GeneratorContext } from './generator.js';
import { withTemplatedValues } from './generator-values.js';
import { GeneratorSpecError, readObject, readOptionalSeconds, readString, readStringMap } from './spec-reading.js';

/** Argo CD's requeue of a plugin generator without `requeueAfterSeconds`: 30 minutes. */
export const DEFAULT_PLUGIN_REQUEUE_MS = 30 * 60_000;

/** A `plugin` generator spec, read and checked. */
export interface PluginSpec {
  readonly configMapName: string;
  /** `input.parameters`: any JSON values, sent to the plugin and given back as `generator.input.parameters`. */
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly values: Readonly<Record<string, string>>;
  readonly requeueAfterSeconds: number | undefined;
}

/** Reads a `plugin` spec; every problem names its field. */
export function readPluginSpec(raw: unknown): PluginSpec {
  const body = readObject(raw, 'plugin');
  const configMapRef = readObject(body.configMapRef, 'plugin.configMapRef');
  const input = body.input === undefined || body.input === null ? {} : readObject(body.input, 'plugin.input');
  const parameters = input.parameters === undefined || input.parameters === null ? {} : readObject(input.parameters, 'plugin.input.parameters');
  return {
    configMapName: readString(configMapRef.name, 'plugin.configMapRef.name'),
    parameters,
    values: readStringMap(body.values, 'plugin.values'),
    requeueAfterSeconds: readOptionalSeconds(body.requeueAfterSeconds, 'plugin.requeueAfterSeconds'),
  };
}

/**
 * The plugin generator: one param set per object the plugin service named by `configMapRef` returns, plus
 * `generator.input.parameters` (goTemplate only, see {@link pluginParams}) and `values`, as in Argo CD.
 */
export const pluginGenerator: Generator = {
  name: 'plugin',
  generate: (raw, ctx) => Promise.resolve().then(() => generate(readPluginSpec(raw), ctx)),
  // As Argo CD: 30 minutes by default; 0 asks for no requeue at all.
  requeueAfterMs: (raw) => {
    const seconds = readPluginSpec(raw).requeueAfterSeconds;
    if (seconds === undefined) return DEFAULT_PLUGIN_REQUEUE_MS;
    return seconds === 0 ? undefined : seconds * 1000;
  },
};

async function generate(spec: PluginSpec, ctx: GeneratorContext): Promise<ParamSet[]> {
  if (!ctx.plugins) throw new GeneratorSpecError('plugin', 'plugin generators cannot run here (no plugin service is reachable)');
  const request = { configMapName: spec.configMapName, applicationSetName: ctx.applicationSetName ?? '', parameters: spec.parameters };
  const answer = await ctx.plugins.call(request, ctx.signal);
  ctx.log.debug({ plugin: spec.configMapName, parameterSets: answer.length }, 'plugin generator: the plugin answered');
  return answer.map((set) => withTemplatedValues(pluginParams(set, spec.parameters, ctx.goTemplate), spec.values, ctx));
}

/**
 * One parameter set as Argo CD builds it. goTemplate: the plugin's object as it is, and `generator.input.parameters`
 * (the plugin's own `generator` key is replaced). fasttemplate: the object flattened to dotted names with every
 * value printed as Go's `%v` prints it (`key2.key2_1`, `123`, `true`); Argo CD's `generator` entry there is a
 * nested map that no fasttemplate placeholder can name, so it is left out and `{{generator.input.parameters.x}}`
 * is a missing parameter, as it stays unreplaced in Argo CD.
 */
export function pluginParams(set: PluginParameters, parameters: Readonly<Record<string, unknown>>, goTemplate: boolean): ParamSet {
  const fromPlugin = set as ParamSet;
  if (!goTemplate) return fileParamsAsFasttemplate(fromPlugin);
  // Argo CD holds each input parameter as raw JSON (apiextensionsv1.JSON), and a template sees that struct.
  const raw = Object.fromEntries(Object.entries(parameters).map(([key, value]) => [key, goTypedValue(new GoRawJson(value))]));
  return { ...fromPlugin, generator: { input: { parameters: raw as unknown as Record<string, ParamValue> } } };
}
