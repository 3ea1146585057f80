/**
 * Builders for the Handlebars AST our translators produce. Handlebars compiles an AST to JavaScript, so
 * only these builders create nodes: user text only ever lands in string values (quoted by the compiler),
 * numbers are always real numbers, and helper names come from our own fixed tables.
 */

/** A node of the Handlebars AST (the fields the compiler reads). */
export type HbsNode = Record<string, unknown> & { type: string };

const NO_STRIP = { open: false, close: false };
const LOC = { source: 'appset-template', start: { line: 1, column: 0 }, end: { line: 1, column: 0 } };

/** A template body. */
export function program(body: HbsNode[]): HbsNode {
  return { type: 'Program', body, blockParams: [], strip: {}, loc: LOC };
}

/** Literal output text, never interpreted. */
export function content(value: string): HbsNode {
  return { type: 'ContentStatement', value, original: value, loc: LOC };
}

function helperPath(name: string): HbsNode {
  return { type: 'PathExpression', data: false, depth: 0, parts: [name], original: name, loc: LOC };
}

/** `{{name params...}}`: output of a helper call. */
export function mustache(helper: string, params: HbsNode[]): HbsNode {
  return { type: 'MustacheStatement', path: helperPath(helper), params, hash: undefined, escaped: false, strip: NO_STRIP, loc: LOC };
}

/** `(name params...)`: a helper call used as a value. */
export function subExpression(helper: string, params: HbsNode[]): HbsNode {
  return { type: 'SubExpression', path: helperPath(helper), params, hash: undefined, loc: LOC };
}

/** `{{#name params}}body{{else}}inverse{{/name}}`. */
export function block(helper: string, params: HbsNode[], body: HbsNode[], inverse: HbsNode[]): HbsNode {
  return {
    type: 'BlockStatement',
    path: helperPath(helper),
    params,
    hash: undefined,
    program: program(body),
    inverse: inverse.length ? program(inverse) : undefined,
    openStrip: NO_STRIP,
    inverseStrip: NO_STRIP,
    closeStrip: NO_STRIP,
    loc: LOC,
  };
}

/** A literal value: string, finite number, boolean or null. */
export function literal(value: string | number | boolean | null): HbsNode {
  if (value === null) return { type: 'NullLiteral', value: null, original: null, loc: LOC };
  if (typeof value === 'string') return { type: 'StringLiteral', value, original: value, loc: LOC };
  if (typeof value === 'boolean') return { type: 'BooleanLiteral', value, original: value, loc: LOC };
  if (!Number.isFinite(value)) throw new TypeError('only finite numbers can be template literals');
  return { type: 'NumberLiteral', value, original: value, loc: LOC };
}
