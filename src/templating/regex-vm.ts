import { TemplateProblem } from './template-problem.js';
import type { CharTest } from './regex-class.js';
import { parseRegex, type AssertKind, type RegexNode } from './regex-parse.js';

/**
 * Compiles a parsed Go regular expression to a program and runs it on a Pike VM: every position is
 * visited once per instruction, so matching takes time linear in the text (as Go's RE2 guarantees; a
 * backtracking engine could be made to run for hours by a template), and threads are kept in priority
 * order, which gives Go's leftmost-first match and submatches.
 */

type Inst =
  | { op: 'char'; test: CharTest; next: number }
  | { op: 'split'; x: number; y: number }
  | { op: 'jmp'; x: number }
  | { op: 'save'; slot: number; next: number }
  | { op: 'assert'; kind: AssertKind; next: number }
  | { op: 'match' };

/** Largest program and largest amount of matching work one call may do. */
const MAX_PROGRAM = 200_000;
const MAX_STEPS = 50_000_000;

function nullable(node: RegexNode): boolean {
  switch (node.t) {
    case 'char':
      return false;
    case 'cat':
      return node.subs.every(nullable);
    case 'alt':
      return node.subs.some(nullable);
    case 'cap':
      return nullable(node.sub);
    case 'rep':
      return node.min === 0 || nullable(node.sub);
    default:
      return true;
  }
}

class Compiler {
  readonly prog: Inst[] = [];

  private emit(inst: Inst): number {
    if (this.prog.length >= MAX_PROGRAM) throw new TemplateProblem('the regular expression is too large');
    return this.prog.push(inst) - 1;
  }

  private here(): number {
    return this.prog.length;
  }

  /** Emits `node`; control falls through to the instruction after it. */
  compile(node: RegexNode): void {
    switch (node.t) {
      case 'char':
        this.emit({ op: 'char', test: node.test, next: this.here() + 1 });
        return;
      case 'assert':
        this.emit({ op: 'assert', kind: node.k, next: this.here() + 1 });
        return;
      case 'empty':
        return;
      case 'cat':
        node.subs.forEach((sub) => this.compile(sub));
        return;
      case 'cap':
        this.emit({ op: 'save', slot: 2 * node.index, next: this.here() + 1 });
        this.compile(node.sub);
        this.emit({ op: 'save', slot: 2 * node.index + 1, next: this.here() + 1 });
        return;
      case 'alt':
        return this.alternate(node.subs);
      case 'rep':
        return this.repeat(node);
    }
  }

  private alternate(subs: RegexNode[]): void {
    const jumps: Inst[] = [];
    subs.forEach((sub, i) => {
      if (i === subs.length - 1) return this.compile(sub);
      const split = { op: 'split' as const, x: this.here() + 1, y: 0 };
      this.emit(split);
      this.compile(sub);
      const jump = { op: 'jmp' as const, x: 0 };
      jumps.push(jump);
      this.emit(jump);
      split.y = this.here();
    });
    for (const jump of jumps) if (jump.op === 'jmp') jump.x = this.here();
  }

  /** `x?`: try x first when greedy. */
  private quest(sub: () => void, greedy: boolean): void {
    const split = { op: 'split' as const, x: 0, y: 0 };
    this.emit(split);
    const body = this.here();
    sub();
    [split.x, split.y] = greedy ? [body, this.here()] : [this.here(), body];
  }

  /** `x+`: x, then back to x again (first when greedy). */
  private plus(sub: () => void, greedy: boolean): void {
    const body = this.here();
    sub();
    const after = this.here() + 1;
    this.emit(greedy ? { op: 'split', x: body, y: after } : { op: 'split', x: after, y: body });
  }

  /** Go's simplification of counted repetition: x{n,m} is n copies of x, then (x(x)?)? nested. */
  private repeat(node: Extract<RegexNode, { t: 'rep' }>): void {
    const { min, max, greedy, sub } = node;
    const one = () => this.compile(sub);
    if (max === -1) {
      for (let i = 0; i < min - 1; i++) one();
      if (min >= 1) return this.plus(one, greedy);
      // Go compiles a star over something that can match empty as (x+)?, for the same match priorities.
      if (nullable(sub)) return this.quest(() => this.plus(one, greedy), greedy);
      const split = { op: 'split' as const, x: 0, y: 0 };
      const loop = this.emit(split);
      one();
      this.emit({ op: 'jmp', x: loop });
      [split.x, split.y] = greedy ? [loop + 1, this.here()] : [this.here(), loop + 1];
      return;
    }
    for (let i = 0; i < min; i++) one();
    const optional = (left: number): void => {
      if (left > 0)
        this.quest(() => {
          one();
          optional(left - 1);
        }, greedy);
    };
    optional(max - min);
  }
}

/** A compiled regular expression. */
export interface Program {
  prog: Inst[];
  slots: number;
  names: string[];
}

/** Compiles a Go pattern; throws RegexSyntaxError where Go would. */
export function compileRegex(pattern: string): Program {
  const { root, names } = parseRegex(pattern);
  const compiler = new Compiler();
  compiler.compile({ t: 'cap', index: 0, sub: root });
  compiler.prog.push({ op: 'match' });
  return { prog: compiler.prog, slots: 2 * names.length, names };
}

const isWord = (cp: number | undefined) => cp !== undefined && ((cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122) || cp === 95);

function assertHolds(kind: AssertKind, text: number[], pos: number): boolean {
  const before = text[pos - 1];
  const after = text[pos];
  switch (kind) {
    case 'bot':
      return pos === 0;
    case 'eot':
      return pos === text.length;
    case 'bol':
      return pos === 0 || before === 10;
    case 'eol':
      return pos === text.length || after === 10;
    case 'wb':
      return isWord(before) !== isWord(after);
    case 'nwb':
      return isWord(before) === isWord(after);
  }
}

interface Thread {
  pc: number;
  caps: number[];
}

/** A work budget shared by the searches of one function call. */
export class MatchBudget {
  steps = 0;
  spend(n: number): void {
    this.steps += n;
    if (this.steps > MAX_STEPS) throw new TemplateProblem('the regular expression needs too much work on this text');
  }
}

/** Follows jumps, splits, saves and assertions from `pc` at `pos`, adding threads in priority order. */
function addThread(program: Program, list: Thread[], seen: Int32Array, mark: number, start: Thread, text: number[], pos: number): void {
  const stack: Thread[] = [start];
  while (stack.length > 0) {
    const { pc, caps } = stack.pop() as Thread;
    if (seen[pc] === mark) continue;
    seen[pc] = mark;
    const inst = program.prog[pc] as Inst;
    if (inst.op === 'jmp') stack.push({ pc: inst.x, caps });
    else if (inst.op === 'split') stack.push({ pc: inst.y, caps }, { pc: inst.x, caps });
    else if (inst.op === 'save') {
      const next = caps.slice();
      next[inst.slot] = pos;
      stack.push({ pc: inst.next, caps: next });
    } else if (inst.op === 'assert') {
      if (assertHolds(inst.kind, text, pos)) stack.push({ pc: inst.next, caps });
    } else list.push({ pc, caps });
  }
}

/** The leftmost-first match starting at or after `from` (code point positions), or undefined. */
export function execRegex(program: Program, text: number[], from: number, budget: MatchBudget): number[] | undefined {
  let current: Thread[] = [];
  let next: Thread[] = [];
  const seen = new Int32Array(program.prog.length).fill(-1);
  let matched: number[] | undefined;
  for (let pos = from; pos <= text.length; pos++) {
    if (!matched) addThread(program, current, seen, pos, { pc: 0, caps: new Array<number>(program.slots).fill(-1) }, text, pos);
    if (current.length === 0) {
      if (matched) break;
      continue;
    }
    budget.spend(current.length);
    for (const thread of current) {
      const inst = program.prog[thread.pc] as Inst;
      if (inst.op === 'match') {
        matched = thread.caps;
        break;
      }
      if (inst.op === 'char' && pos < text.length && inst.test(text[pos] as number))
        addThread(program, next, seen, pos + 1, { pc: inst.next, caps: thread.caps }, text, pos + 1);
    }
    [current, next] = [next, []];
  }
  return matched;
}
