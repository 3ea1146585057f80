// The render benchmark's baseline: a bare cached-compile Handlebars loop. Each template string, written
// in plain Handlebars syntax, is compiled once; an Application is a fresh copy of the template object with
// every string leaf replaced by its compiled template's output. No translation, no fasttemplate name
// resolution, no missing-parameter checks, no output budget, no validation, no normalization: the least
// any renderer that builds Applications from these templates has to do.
import Handlebars from 'handlebars';

type Compiled = (params: unknown) => string;
type CompiledTree = Compiled | string | number | boolean | null | CompiledTree[] | { [key: string]: CompiledTree };

/** A Handlebars environment with the two functions the goTemplate style's templates use. */
function bareHandlebars(): typeof Handlebars {
  const handlebars = Handlebars.create();
  handlebars.registerHelper('lower', (value: unknown) => String(value).toLowerCase());
  handlebars.registerHelper('default', (value: unknown, fallback: unknown) => (value === undefined || value === null || value === '' ? fallback : value));
  return handlebars;
}

function compileTree(handlebars: typeof Handlebars, node: unknown): CompiledTree {
  if (typeof node === 'string') {
    if (!node.includes('{{')) return node;
    const template = handlebars.compile(node, { noEscape: true, strict: false });
    return (params: unknown) => template(params);
  }
  if (Array.isArray(node)) return node.map((item) => compileTree(handlebars, item));
  if (node !== null && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, compileTree(handlebars, v)]));
  return node as CompiledTree;
}

function run(tree: CompiledTree, params: unknown): unknown {
  if (typeof tree === 'function') return tree(params);
  if (Array.isArray(tree)) return tree.map((item) => run(item, params));
  if (tree !== null && typeof tree === 'object') {
    const out: Record<string, unknown> = {};
    for (const key in tree) out[key] = run(tree[key] as CompiledTree, params);
    return out;
  }
  return tree;
}

/** Compiles `template` (plain Handlebars strings) once and returns a function that renders it for one parameter set. */
export function bareRenderer(template: unknown): (params: unknown) => unknown {
  const tree = compileTree(bareHandlebars(), template);
  return (params) => run(tree, params);
}
