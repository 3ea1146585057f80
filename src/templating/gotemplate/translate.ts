import { block, content, literal, mustache, program, subExpression, type HbsNode } from '../hbs-ast.js';
import { parseGoTemplate, type GoNode, type GoOperand, type GoPipeline } from './parse.js';
import { functionProblem, RUNTIME } from '../runtime-names.js';

/** Translates a Go template (Argo CD's `goTemplate: true`) into a Handlebars program over our runtime helpers. */

/** The Handlebars AST for `text`; throws a TemplateProblem naming any unsupported construct and its place. */
export function translateGoTemplate(text: string): HbsNode {
  return program(parseGoTemplate(text, functionProblem).map(translateNode));
}

function translateNode(node: GoNode): HbsNode {
  switch (node.kind) {
    case 'text':
      return content(node.value);
    case 'print':
      return mustache(RUNTIME.print, [pipelineExpression(node.pipeline), literal(node.where), literal(node.pipeline.rawValue)]);
    case 'if':
    case 'with':
      return block(
        node.kind === 'if' ? RUNTIME.if : RUNTIME.with,
        [pipelineExpression(node.pipeline)],
        node.then.map(translateNode),
        node.otherwise.map(translateNode),
      );
    case 'range': {
      const [first = '', second = ''] = node.variables;
      // Go: one variable is the element; two are index/key and element.
      const [indexVar, elementVar] = node.variables.length === 2 ? [first, second] : ['', first];
      return block(
        RUNTIME.range,
        [pipelineExpression(node.pipeline), literal(indexVar), literal(elementVar)],
        node.body.map(translateNode),
        node.otherwise.map(translateNode),
      );
    }
  }
}

/** `a | f x | g y` becomes `g(y, f(x, a))`: each result is the next command's last argument. */
function pipelineExpression(pipeline: GoPipeline): HbsNode {
  let previous: HbsNode | undefined;
  for (const command of pipeline.commands) previous = commandExpression(command, previous);
  if (!previous) throw new Error('empty pipeline');
  return previous;
}

function commandExpression(command: GoOperand[], piped: HbsNode | undefined): HbsNode {
  const [head, ...args] = command;
  if (head?.kind !== 'function') return operandExpression(head as GoOperand);
  const params = args.map(operandExpression);
  if (piped) params.push(piped);
  return subExpression(RUNTIME.call, [literal(head.name), ...params]);
}

function operandExpression(operand: GoOperand): HbsNode {
  switch (operand.kind) {
    case 'field':
      return subExpression(RUNTIME.field, [literal(operand.base), literal(operand.variable), literal(operand.text), ...operand.names.map(literal)]);
    case 'literal':
      // Go integers are bigints at run time; Handlebars literals can only be numbers, so one helper makes them.
      return typeof operand.value === 'bigint' ? subExpression(RUNTIME.int, [literal(operand.value.toString())]) : literal(operand.value);
    case 'function':
      // A function named without arguments is a call with none, as in Go.
      return subExpression(RUNTIME.call, [literal(operand.name)]);
    case 'pipeline': {
      const inner = pipelineExpression(operand.pipeline);
      if (operand.names.length === 0) return inner;
      return subExpression(RUNTIME.get, [inner, literal(`(...).${operand.names.join('.')}`), ...operand.names.map(literal)]);
    }
  }
}
