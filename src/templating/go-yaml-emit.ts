/**
 * Argo CD's `toYaml` text, byte for byte: sigs.k8s.io/yaml (v1.6.0) Marshal, which writes the value go-yaml v2
 * decoded from json.Marshal's text (go-yaml-decode.ts) with go-yaml v2's encoder and its defaults: block style,
 * indent 2, preferred width 80, unicode output. This is libyaml's emitter (emitterc.go) as far as JSON-shaped
 * data needs it: the only flow collections are the empty ones (`[]`, `{}`), everything else is block style.
 */
import { codePoints, decodeJson, type Mapping, type Scalar, type Sequence, type Style, type YamlNode } from './go-yaml-decode.js';

/** sigs.k8s.io/yaml Marshal of JSON-shaped data: the YAML document, ending with a line break. */
export function goYamlMarshal(value: unknown): string {
  const writer = new Writer();
  emitNode(writer, decodeJson(value), -1, ROOT);
  // The document end: go-yaml ends the last line (a block scalar that kept its final break already did).
  writer.writeIndent(-1);
  return writer.text();
}

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
/** go-yaml's default preferred line width: a space past this column may become a line break. */
const BEST_WIDTH = 80;
/** go-yaml's default indentation step. */
const BEST_INDENT = 2;

/** Line breaks for YAML: CR, LF, NEL, LS, PS. */
const isBreak = (cp: number | undefined) => cp === 0x0d || cp === LF || cp === 0x85 || cp === 0x2028 || cp === 0x2029;

/** What libyaml may write unescaped: LF, printable ASCII, and the BMP without surrogates, BOM, U+FFFE/F. */
function isPrintable(cp: number): boolean {
  return cp === LF || (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff);
}

/** Where a node sits: the emitter's context flags. */
interface Context {
  readonly mapping: boolean;
  readonly simpleKey: boolean;
}
const ROOT: Context = { mapping: false, simpleKey: false };

/** The output and the emitter's position state (column, and whether the line so far is only whitespace). */
class Writer {
  private out = '';
  column = 0;
  /** The last character written was whitespace (or nothing on the line): an indicator needs no space. */
  whitespace = true;
  /** Only indentation has been written on this line so far. */
  indention = true;

  text(): string {
    return this.out;
  }

  /** Writes text that is `width` characters wide (ASCII unless told). */
  put(text: string, width = text.length): void {
    this.out += text;
    this.column += width;
  }

  /** Writes one character; the column counts characters, not bytes or display width. */
  putChar(cp: number): void {
    this.out += String.fromCodePoint(cp);
    this.column++;
  }

  newline(): void {
    this.out += '\n';
    this.column = 0;
  }

  /** Copies a line break from a scalar: LF is a newline, LS or PS are written as they are. */
  putBreak(cp: number): void {
    if (cp === LF) this.newline();
    else {
      this.putChar(cp);
      this.column = 0;
    }
  }

  /** Moves to the indentation column, starting a new line unless the current one holds only indentation. */
  writeIndent(indent: number): void {
    const target = Math.max(indent, 0);
    if (!this.indention || this.column > target || (this.column === target && !this.whitespace)) this.newline();
    while (this.column < target) this.put(' ');
    this.whitespace = true;
    this.indention = true;
  }

  /** Writes an indicator such as `-`, `:`, `?`, a quote or `|`, with a space before it when one is needed. */
  indicator(text: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    this.put(text);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }
}

/** Writes one node; `indent` is the emitter's indentation of the enclosing collection (-1 at the root). */
function emitNode(writer: Writer, node: YamlNode, indent: number, context: Context): void {
  if (node.kind === 'scalar') emitScalar(writer, node, indent, context);
  else if (node.kind === 'sequence') {
    if (node.items.length === 0) emitEmpty(writer, '[]');
    else emitSequence(writer, node, indent, context);
  } else if (node.entries.length === 0) emitEmpty(writer, '{}');
  else emitMapping(writer, node, indent);
}

/** An empty collection is written in flow style. */
function emitEmpty(writer: Writer, brackets: '[]' | '{}'): void {
  writer.indicator(brackets.charAt(0), true, true, false);
  writer.indicator(brackets.charAt(1), false, false, false);
}

/** A block sequence: `- item` lines. */
function emitSequence(writer: Writer, node: Sequence, indent: number, context: Context): void {
  // A sequence that is a mapping value starting on its own line is not indented ("key:\n- a").
  const indentless = context.mapping && !writer.indention;
  const inner = indent < 0 ? 0 : indentless ? indent : indent + BEST_INDENT;
  for (const item of node.items) {
    writer.writeIndent(inner);
    writer.indicator('-', true, false, true);
    emitNode(writer, item, inner, { mapping: false, simpleKey: false });
  }
}

/** A block mapping: `key: value` lines, or `? key` and `: value` for keys that cannot be simple. */
function emitMapping(writer: Writer, node: Mapping, indent: number): void {
  const inner = indent < 0 ? 0 : indent + BEST_INDENT;
  for (const [key, value] of node.entries) {
    writer.writeIndent(inner);
    const keyAnalysis = analyzeScalar(key.chars);
    // A simple key is a one-line scalar of at most 128 bytes; anything else is a complex key: "? key\n: value".
    if (!keyAnalysis.multiline && utf8Length(key.chars) <= 128) {
      emitScalar(writer, key, inner, { mapping: true, simpleKey: true });
      writer.indicator(':', false, false, false);
    } else {
      writer.indicator('?', true, false, true);
      emitScalar(writer, key, inner, { mapping: true, simpleKey: false });
      writer.writeIndent(inner);
      writer.indicator(':', true, false, true);
    }
    emitNode(writer, value, inner, { mapping: true, simpleKey: false });
  }
}

/** Length of the text in UTF-8 bytes, which libyaml's simple-key limit counts. */
function utf8Length(chars: readonly number[]): number {
  return chars.reduce((n, cp) => n + (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4), 0);
}

/** What the emitter learns about a scalar's text (yaml_emitter_analyze_scalar), as far as block context needs. */
interface Analysis {
  readonly multiline: boolean;
  readonly plainAllowed: boolean;
  readonly singleQuotedAllowed: boolean;
  readonly blockAllowed: boolean;
}

/** Characters that cannot start a plain scalar. */
const FIRST_INDICATORS = new Set(codePoints('#,[]{}&*!|>\'"%@`'));

/** An empty scalar: plain is fine, a block scalar is not. */
const EMPTY: Analysis = { multiline: false, plainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };

/** yaml_emitter_analyze_scalar: which styles can hold the text. */
function analyzeScalar(chars: readonly number[]): Analysis {
  if (chars.length === 0) return EMPTY;
  const first = chars[0];
  const last = chars[chars.length - 1];
  let lineBreaks = false;
  let special = false;
  let breakSpace = false;
  let spaceBreak = false;
  for (let i = 0; i < chars.length; i++) {
    const cp = chars[i] ?? 0;
    if (!isPrintable(cp)) special = true;
    if (isBreak(cp)) {
      lineBreaks = true;
      if (chars[i + 1] === SPACE) breakSpace = true;
    } else if (cp === SPACE && isBreak(chars[i + 1])) spaceBreak = true;
  }
  // Spaces or breaks at either end would be lost by a plain scalar; a space after a break would be taken for
  // indentation in a single-quoted one; a space before a break would be trimmed in a block scalar.
  const edges = first === SPACE || last === SPACE || isBreak(first) || isBreak(last);
  return {
    multiline: lineBreaks,
    plainAllowed: !(edges || lineBreaks || breakSpace || spaceBreak || special || hasIndicators(chars)),
    singleQuotedAllowed: !(breakSpace || spaceBreak || special),
    blockAllowed: !(last === SPACE || spaceBreak || special),
  };
}

/** Whether YAML syntax in the text rules out a plain scalar in block context (flow context never arises here). */
function hasIndicators(chars: readonly number[]): boolean {
  const [c0, c1, c2] = chars;
  if ((c0 === 0x2d && c1 === 0x2d && c2 === 0x2d) || (c0 === 0x2e && c1 === 0x2e && c2 === 0x2e)) return true; // --- or ...
  for (let i = 0; i < chars.length; i++) {
    const cp = chars[i] ?? 0;
    const next = chars[i + 1];
    const followedByBlank = next === undefined || next === SPACE || next === TAB;
    if (i === 0) {
      // `?`, `:` and `-` only count when a blank (or the end) follows.
      if (FIRST_INDICATORS.has(cp) || ((cp === 0x3f || cp === 0x3a || cp === 0x2d) && followedByBlank)) return true;
    } else {
      const previous = chars[i - 1] ?? 0;
      const precededByBlank = previous === SPACE || previous === TAB || previous === 0 || isBreak(previous);
      if ((cp === 0x3a && followedByBlank) || (cp === 0x23 && precededByBlank)) return true; // ": " and " #"
    }
  }
  return false;
}

/** The style the emitter settles on (yaml_emitter_select_scalar_style) for the requested one. */
function chooseStyle(scalar: Scalar, analysis: Analysis, simpleKey: boolean): Style {
  let style = scalar.style;
  if (simpleKey && analysis.multiline) style = 'double';
  if (style === 'plain' && (!analysis.plainAllowed || (scalar.chars.length === 0 && simpleKey))) style = 'single';
  if (style === 'single' && !analysis.singleQuotedAllowed) style = 'double';
  if (style === 'literal' && (!analysis.blockAllowed || simpleKey)) style = 'double';
  return style;
}

/** Writes a scalar in the style the emitter settles on. */
function emitScalar(writer: Writer, scalar: Scalar, indent: number, context: Context): void {
  const analysis = analyzeScalar(scalar.chars);
  const style = chooseStyle(scalar, analysis, context.simpleKey);
  // A scalar's continuation lines are indented one step deeper than its collection (2 at the root).
  const inner = indent < 0 ? BEST_INDENT : indent + BEST_INDENT;
  // Long lines are folded, except in a simple key, which must stay on one line.
  const fold = !context.simpleKey;
  // Text that ends before the preferred width cannot fold: write it at once (plain text has no breaks).
  const short = !fold || writer.column + 2 * scalar.chars.length < BEST_WIDTH;
  if (style === 'plain' && short) writeShort(writer, scalar, ' ', '');
  else if (style === 'single' && short && !analysis.multiline) writeShort(writer, scalar, "'", "'");
  else if (style === 'plain') writePlain(writer, scalar.chars, inner, fold);
  else if (style === 'single') writeSingleQuoted(writer, scalar.chars, inner, fold);
  else if (style === 'double') writeDoubleQuoted(writer, scalar.chars, inner, fold);
  else writeLiteral(writer, scalar.chars, inner);
}

/** A one-line plain or 'single-quoted' scalar that cannot fold, as writePlain or writeSingleQuoted would write it. */
function writeShort(writer: Writer, scalar: Scalar, open: ' ' | "'", close: '' | "'"): void {
  if (open === "'") writer.indicator("'", true, false, false);
  else if (!writer.whitespace) writer.put(' ');
  const text = close ? scalar.text.replaceAll("'", "''") : scalar.text;
  writer.put(text + close, scalar.chars.length + (text.length - scalar.text.length) + close.length);
  writer.whitespace = false;
  writer.indention = false;
}

/** Plain text; a single space past the preferred width becomes a line break. */
function writePlain(writer: Writer, chars: readonly number[], indent: number, fold: boolean): void {
  // Plain text never holds a line break (the analysis rules plain out), so only spaces need care.
  if (!writer.whitespace) writer.put(' ');
  let spaces = false;
  chars.forEach((cp, i) => {
    if (cp === SPACE) {
      if (fold && !spaces && writer.column > BEST_WIDTH && chars[i + 1] !== SPACE) writer.writeIndent(indent);
      else writer.putChar(cp);
      spaces = true;
    } else {
      writer.putChar(cp);
      writer.indention = false;
      spaces = false;
    }
  });
  writer.whitespace = false;
  writer.indention = false;
}

/** 'Single-quoted' text: quotes doubled, line breaks written as blank-line-separated lines. */
function writeSingleQuoted(writer: Writer, chars: readonly number[], indent: number, fold: boolean): void {
  writer.indicator("'", true, false, false);
  let spaces = false;
  let breaks = false;
  chars.forEach((cp, i) => {
    if (cp === SPACE) {
      const inside = i > 0 && i < chars.length - 1;
      if (fold && !spaces && writer.column > BEST_WIDTH && inside && chars[i + 1] !== SPACE) writer.writeIndent(indent);
      else writer.putChar(cp);
      spaces = true;
    } else if (isBreak(cp)) {
      if (!breaks && cp === LF) writer.newline();
      writer.putBreak(cp);
      writer.indention = true;
      breaks = true;
    } else {
      if (breaks) writer.writeIndent(indent);
      if (cp === 0x27) writer.put("'");
      writer.putChar(cp);
      writer.indention = false;
      spaces = false;
      breaks = false;
    }
  });
  writer.indicator("'", false, false, false);
  writer.whitespace = false;
  writer.indention = false;
}

/** libyaml's short escapes in double-quoted text. */
const SHORT_ESCAPES = new Map<number, string>([
  [0x00, '0'],
  [0x07, 'a'],
  [0x08, 'b'],
  [0x09, 't'],
  [0x0a, 'n'],
  [0x0b, 'v'],
  [0x0c, 'f'],
  [0x0d, 'r'],
  [0x1b, 'e'],
  [0x22, '"'],
  [0x5c, '\\'],
  [0x85, 'N'],
  [0xa0, '_'],
  [0x2028, 'L'],
  [0x2029, 'P'],
]);

/** An escape: a short one, else \xXX, \uXXXX or \UXXXXXXXX in upper-case hex. */
function escapeChar(cp: number): string {
  const short = SHORT_ESCAPES.get(cp);
  if (short !== undefined) return `\\${short}`;
  const hex = cp.toString(16).toUpperCase();
  return cp <= 0xff ? `\\x${hex.padStart(2, '0')}` : cp <= 0xffff ? `\\u${hex.padStart(4, '0')}` : `\\U${hex.padStart(8, '0')}`;
}

/** "Double-quoted" text; a fold that lands before a space escapes the line start with `\`. */
function writeDoubleQuoted(writer: Writer, chars: readonly number[], indent: number, fold: boolean): void {
  writer.indicator('"', true, false, false);
  // libyaml tests for a byte order mark at the start of the whole value, so one there escapes everything.
  const bom = chars[0] === 0xfeff;
  let spaces = false;
  chars.forEach((cp, i) => {
    if (bom || !isPrintable(cp) || isBreak(cp) || cp === 0x22 || cp === 0x5c) {
      writer.put(escapeChar(cp));
      spaces = false;
    } else if (cp === SPACE) {
      if (fold && !spaces && writer.column > BEST_WIDTH && i > 0 && i < chars.length - 1) {
        writer.writeIndent(indent);
        if (chars[i + 1] === SPACE) writer.put('\\');
      } else writer.putChar(cp);
      spaces = true;
    } else {
      writer.putChar(cp);
      spaces = false;
    }
  });
  writer.indicator('"', false, false, false);
  writer.whitespace = false;
  writer.indention = false;
}

/** A |literal block: an indentation indicator if it starts with a space, then the chomping indicator. */
function writeLiteral(writer: Writer, chars: readonly number[], indent: number): void {
  writer.indicator('|', true, false, false);
  if (chars[0] === SPACE || isBreak(chars[0])) writer.indicator(String(BEST_INDENT), false, false, false);
  // `-` strips a text without a final break, `+` keeps a text ending in two breaks (or being one), none clips.
  const last = chars.length - 1;
  const chomp = !isBreak(chars[last]) ? '-' : last === 0 || isBreak(chars[last - 1]) ? '+' : '';
  if (chomp) writer.indicator(chomp, false, false, false);
  writer.newline();
  writer.indention = true;
  writer.whitespace = true;
  let breaks = true;
  for (const cp of chars) {
    if (isBreak(cp)) {
      writer.putBreak(cp);
      writer.indention = true;
      breaks = true;
    } else {
      if (breaks) writer.writeIndent(indent);
      writer.putChar(cp);
      writer.indention = false;
      breaks = false;
    }
  }
}
