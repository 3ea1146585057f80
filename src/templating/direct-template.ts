import type { HbsNode } from './hbs-ast.js';
import { RUNTIME } from './runtime-names.js';
import { fasttemplateParam } from './runtime-helpers.js';
import { dataOf } from './scope.js';

/**
 * Runs the block-free programs our translators produce (text, and helper calls whose arguments are literals
 * or further helper calls) without Handlebars' per-call set-up, which re-wraps every registered helper and
 * rebuilds its prototype-access tables on each call: for a short template that was most of the time. The
 * result is the text a compiled Handlebars template gives for the same AST: the same helpers are called
 * with the same arguments, `this` and `options.data`, in the same order, and their exceptions propagate.
 * Handlebars' property lookups, which its access control guards, never occur: our ASTs contain no paths.
 * Programs with blocks (Go's if, with, range) return undefined and are compiled by Handlebars.
 */

type Helper = (this: unknown, ...args: unknown[]) => unknown;
type Value = (context: unknown, data: unknown) => unknown;

/** A template for one parameter set: `context` is Handlebars' context, `options.data` its `@data`. */
export type DirectTemplate = (context: unknown, options: { data?: unknown }) => string;

/** Mustaches whose helper always returns a string, so concatenation is text concatenation as in Handlebars. */
const TEXT_HELPERS: ReadonlySet<string> = new Set([RUNTIME.print, RUNTIME.param]);
/** What Handlebars passes as `this` for a null context. */
const NULL_CONTEXT = Object.seal({});

/** The direct form of `ast`, or undefined if it has a construct only Handlebars runs. */
export function compileDirect(ast: HbsNode, helpers: Readonly<Record<string, Helper>>): DirectTemplate | undefined {
  if (ast.type !== 'Program' || !Array.isArray(ast['body'])) return undefined;
  const parts: (string | Value)[] = [];
  for (const node of ast['body'] as HbsNode[]) {
    if (node.type === 'ContentStatement') parts.push(String(node['value']));
    else if (node.type === 'MustacheStatement' && TEXT_HELPERS.has(helperName(node))) {
      const call = compileCall(node, helpers);
      if (!call) return undefined;
      parts.push(call);
    } else return undefined;
  }
  return (context, options) => {
    let out = '';
    for (const part of parts) {
      if (typeof part === 'string') out += part;
      else {
        const value = part(context, options.data);
        if (value !== null && value !== undefined) out += value as string;
      }
    }
    return out;
  };
}

function helperName(node: HbsNode): string {
  const path = node['path'] as { type?: string; parts?: unknown[] } | undefined;
  return path?.type === 'PathExpression' && path.parts?.length === 1 ? String(path.parts[0]) : '';
}

/** A helper call with its arguments, or undefined when an argument is not a literal or a helper call. */
function compileCall(node: HbsNode, helpers: Readonly<Record<string, Helper>>): Value | undefined {
  const name = helperName(node);
  const helper = Object.hasOwn(helpers, name) ? helpers[name] : undefined;
  if (!helper || node['hash'] !== undefined || !Array.isArray(node['params'])) return undefined;
  if (name === RUNTIME.param) return compileParamTag(node['params'] as HbsNode[]);
  const params: Value[] = [];
  for (const param of node['params'] as HbsNode[]) {
    const value = compileParam(param, helpers);
    if (!value) return undefined;
    params.push(value);
  }
  const loc = node['loc'];
  const count = params.length;
  return (context, data) => {
    const args: unknown[] = new Array(count + 1);
    for (let i = 0; i < count; i++) args[i] = (params[i] as Value)(context, data);
    args[count] = { name, hash: {}, data, loc };
    return helper.apply(context ?? NULL_CONTEXT, args);
  };
}

/**
 * `ft_param "tag" "seg" ...`, the whole of a fasttemplate placeholder: its literal arguments are read once here,
 * and fasttemplateParam, the helper's own body, runs with them and the same `@data` check.
 */
function compileParamTag(params: HbsNode[]): Value | undefined {
  if (!params.every((param) => param.type === 'StringLiteral')) return undefined;
  const [tag = '', ...segments] = params.map((param) => String(param['value']));
  if (params.length === 0) return undefined;
  return (_context, data) => fasttemplateParam(dataOf({ data }), tag, segments);
}

function compileParam(node: HbsNode, helpers: Readonly<Record<string, Helper>>): Value | undefined {
  switch (node.type) {
    case 'StringLiteral':
    case 'NumberLiteral':
    case 'BooleanLiteral': {
      const value = node['value'];
      return () => value;
    }
    case 'NullLiteral':
      return () => null;
    case 'UndefinedLiteral':
      return () => undefined;
    case 'SubExpression':
      return compileCall(node, helpers);
    default:
      return undefined;
  }
}
