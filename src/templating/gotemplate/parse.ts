import { TemplateProblem } from '../template-problem.js';
import { lexGoTemplate, tokenizeAction, type GoChunk, type GoToken } from './lex.js';
import { isForbiddenName } from '../plain-values.js';

/** Parses the supported subset of Go's text/template into a small tree; everything else is refused by name. */

/** A value in a command: a field chain, a variable, a literal, a function name or a parenthesised pipeline. */
export type GoOperand =
  | { kind: 'field'; base: 'dot' | 'root' | 'var'; variable: string; names: string[]; text: string }
  | { kind: 'literal'; value: string | number | bigint | boolean | null }
  | { kind: 'function'; name: string }
  | { kind: 'pipeline'; pipeline: GoPipeline; names: string[] };

/** `a | f x | g`: commands whose result feeds the next command's last argument. */
export interface GoPipeline {
  commands: GoOperand[][];
  /** True if the pipeline's final command is a bare field or variable (what reaches the output unprocessed). */
  rawValue: boolean;
}

/** One node of a parsed template. */
export type GoNode =
  | { kind: 'text'; value: string }
  | { kind: 'print'; pipeline: GoPipeline; source: string; where: string }
  | { kind: 'if' | 'with'; pipeline: GoPipeline; then: GoNode[]; otherwise: GoNode[] }
  | { kind: 'range'; pipeline: GoPipeline; variables: string[]; body: GoNode[]; otherwise: GoNode[] };

/** Why a function name may not be called (refused or unknown), or undefined if it may. */
export type FunctionCheck = (name: string) => string | undefined;

const KEYWORDS = new Set(['if', 'else', 'end', 'range', 'with', 'template', 'define', 'block', 'break', 'continue']);
const UNSUPPORTED = new Set(['template', 'define', 'block', 'break', 'continue']);
type Action = Extract<GoChunk, { kind: 'action' }>;

/** Human position of an action, used in every error. */
function describe(action: Action): string {
  return `'${action.source}' at line ${action.line}, column ${action.column}`;
}

/** Parses tokens into a pipeline, checking names with `checkFunction`. */
class PipelineParser {
  private index = 0;
  constructor(
    private readonly tokens: GoToken[],
    private readonly where: string,
    private readonly checkFunction: FunctionCheck,
  ) {}

  /** Parses to the end of the tokens (or a closing parenthesis when nested). */
  pipeline(nested = false): GoPipeline {
    const commands: GoOperand[][] = [[]];
    for (;;) {
      const token = this.tokens[this.index];
      if (!token || (nested && token.kind === 'punct' && token.value === ')')) break;
      this.index++;
      if (token.kind === 'punct' && token.value === '|') commands.push([]);
      else commands[commands.length - 1]?.push(this.operand(token));
    }
    if (commands.some((c) => c.length === 0)) throw new TemplateProblem(`${this.where}: empty command in pipeline`);
    this.checkCommands(commands);
    const last = commands[commands.length - 1] ?? [];
    return { commands, rawValue: last.length === 1 && last[0]?.kind === 'field' };
  }

  /** Go only lets a function take arguments; `.a .b` is an error there too. */
  private checkCommands(commands: GoOperand[][]): void {
    commands.forEach((command, i) => {
      const head = command[0];
      if (head?.kind !== 'function' && (command.length > 1 || i > 0)) {
        throw new TemplateProblem(`${this.where}: only a function can take arguments or a piped value`);
      }
    });
  }

  private operand(token: GoToken): GoOperand {
    switch (token.kind) {
      case 'field':
        return this.field('dot', '', token.names, token.names.length ? `.${token.names.join('.')}` : '.');
      case 'variable':
        return token.name === '$'
          ? this.field('root', '', token.names, ['$', ...token.names].join('.'))
          : this.field('var', token.name, token.names, [token.name, ...token.names].join('.'));
      case 'string':
      case 'number':
        return { kind: 'literal', value: token.value };
      case 'ident':
        return this.identifier(token.name);
      case 'punct':
        return this.parenthesised(token.value);
      case 'chained':
        throw new TemplateProblem(`${this.where}: field access must follow a value`);
    }
  }

  private field(base: 'dot' | 'root' | 'var', variable: string, names: string[], text: string): GoOperand {
    const forbidden = names.find(isForbiddenName);
    if (forbidden) throw new TemplateProblem(`${this.where}: access to '${forbidden}' is not allowed`);
    return { kind: 'field', base, variable, names, text };
  }

  private identifier(name: string): GoOperand {
    if (name === 'true' || name === 'false') return { kind: 'literal', value: name === 'true' };
    if (name === 'nil') return { kind: 'literal', value: null };
    if (KEYWORDS.has(name)) throw new TemplateProblem(`${this.where}: '${name}' is only allowed at the start of an action`);
    const problem = this.checkFunction(name);
    if (problem !== undefined) throw new TemplateProblem(`${this.where}: ${problem}`);
    return { kind: 'function', name };
  }

  private parenthesised(punct: string): GoOperand {
    if (punct !== '(') throw new TemplateProblem(`${this.where}: unexpected '${punct}'`);
    const pipeline = this.pipeline(true);
    const close = this.tokens[this.index++];
    if (close?.kind !== 'punct' || close.value !== ')') throw new TemplateProblem(`${this.where}: unclosed '('`);
    const next = this.tokens[this.index];
    const names = next?.kind === 'chained' ? next.names : [];
    if (next?.kind === 'chained') this.index++;
    const forbidden = names.find(isForbiddenName);
    if (forbidden) throw new TemplateProblem(`${this.where}: access to '${forbidden}' is not allowed`);
    return { kind: 'pipeline', pipeline, names };
  }
}

/** `range $i, $v := pipeline`: splits off the declared variables. */
function rangeVariables(tokens: GoToken[], where: string): { variables: string[]; rest: GoToken[] } {
  const declare = tokens.findIndex((t) => t.kind === 'punct' && (t.value === ':=' || t.value === '='));
  if (declare < 0) return { variables: [], rest: tokens };
  const left = tokens.slice(0, declare).filter((t) => !(t.kind === 'punct' && t.value === ','));
  const variables = left.map((t) => (t.kind === 'variable' && t.names.length === 0 && t.name !== '$' ? t.name : ''));
  if (variables.length > 2 || variables.includes('')) throw new TemplateProblem(`${where}: range declares one or two variables, like 'range $i, $v := .list'`);
  return { variables, rest: tokens.slice(declare + 1) };
}

type Stop = { word: 'end' | 'else'; rest: GoToken[]; action: Action };

/** Turns the chunks of one template into nodes, block by block. */
class TemplateParser {
  private index = 0;
  constructor(
    private readonly chunks: GoChunk[],
    private readonly checkFunction: FunctionCheck,
  ) {}

  /** Parses nodes until `end` or `else` (inside a block opened by `opener`) or the end of the text. */
  list(opener: Action | undefined): { nodes: GoNode[]; stop?: Stop } {
    const nodes: GoNode[] = [];
    while (this.index < this.chunks.length) {
      const chunk = this.chunks[this.index++] as GoChunk;
      if (chunk.kind === 'text') {
        nodes.push({ kind: 'text', value: chunk.value });
        continue;
      }
      const tokens = tokenizeAction(chunk.body, describe(chunk));
      const head = tokens[0];
      const word = head?.kind === 'ident' && KEYWORDS.has(head.name) ? head.name : undefined;
      if (word === 'end' || word === 'else') {
        if (!opener) throw new TemplateProblem(`${describe(chunk)}: '${word}' without a matching 'if', 'range' or 'with'`);
        return { nodes, stop: { word, rest: tokens.slice(1), action: chunk } };
      }
      if (word && UNSUPPORTED.has(word)) throw new TemplateProblem(`${describe(chunk)}: '${word}' is not supported (see docs/templating.md)`);
      if (word === 'if' || word === 'with' || word === 'range') nodes.push(this.block(word, tokens.slice(1), chunk));
      else nodes.push({ kind: 'print', pipeline: this.pipeline(tokens, chunk), source: chunk.source, where: describe(chunk) });
    }
    if (opener) throw new TemplateProblem(`${describe(opener)}: the template ends before its '{{end}}'`);
    return { nodes };
  }

  private pipeline(tokens: GoToken[], action: Action): GoPipeline {
    const where = describe(action);
    if (tokens.some((t) => t.kind === 'punct' && (t.value === ':=' || t.value === '='))) {
      throw new TemplateProblem(`${where}: variable declarations are only supported in 'range $i, $v := ...'`);
    }
    if (tokens.length === 0) throw new TemplateProblem(`${where}: missing value`);
    return new PipelineParser(tokens, where, this.checkFunction).pipeline();
  }

  private block(word: 'if' | 'with' | 'range', tokens: GoToken[], action: Action): GoNode {
    const { variables, rest } = word === 'range' ? rangeVariables(tokens, describe(action)) : { variables: [], rest: tokens };
    const pipeline = this.pipeline(rest, action);
    const body = this.list(action);
    const otherwise = this.elseBranch(body.stop, action);
    if (word === 'range') return { kind: 'range', pipeline, variables, body: body.nodes, otherwise };
    return { kind: word, pipeline, then: body.nodes, otherwise };
  }

  /** The nodes after `else` (an `else if`/`else with` is a nested block sharing the same `end`). */
  private elseBranch(stop: Stop | undefined, opener: Action): GoNode[] {
    if (stop?.word !== 'else') {
      if (stop && stop.rest.length > 0) throw new TemplateProblem(`${describe(stop.action)}: 'end' takes no value`);
      return [];
    }
    const head = stop.rest[0];
    if (head?.kind === 'ident' && (head.name === 'if' || head.name === 'with')) return [this.block(head.name, stop.rest.slice(1), stop.action)];
    if (stop.rest.length > 0) throw new TemplateProblem(`${describe(stop.action)}: 'else' takes no value here`);
    const tail = this.list(opener);
    if (tail.stop?.word !== 'end') throw new TemplateProblem(`${describe(stop.action)}: a second 'else' in the same block`);
    return tail.nodes;
  }
}

/** Parses a whole Go template string into nodes. */
export function parseGoTemplate(text: string, checkFunction: FunctionCheck): GoNode[] {
  return new TemplateParser(lexGoTemplate(text), checkFunction).list(undefined).nodes;
}
