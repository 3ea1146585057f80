/**
 * Character sets of Go's RE2 syntax as JavaScript regular-expression classes. Each set ends up as one
 * JavaScript RegExp that tests a single character (so it cannot backtrack); with (?i) the `i` flag gives
 * Unicode simple case folding, which is what Go's folding uses too.
 */

/** A test of one code point. */
export type CharTest = (cp: number) => boolean;

/** Code point range [lo, hi] as JavaScript class text. */
export const range = (lo: number, hi: number): string => (lo === hi ? `\\u{${lo.toString(16)}}` : `\\u{${lo.toString(16)}}-\\u{${hi.toString(16)}}`);

type Ranges = [number, number][];

const POSIX: Record<string, Ranges> = {
  alnum: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  alpha: [
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  ascii: [[0, 0x7f]],
  blank: [
    [9, 9],
    [0x20, 0x20],
  ],
  cntrl: [
    [0, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [
    [0x21, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  space: [
    [9, 0xd],
    [0x20, 0x20],
  ],
  upper: [[0x41, 0x5a]],
  word: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
    [0x5f, 0x5f],
  ],
  xdigit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
};

/** Go's Perl classes: ASCII only (`\s` has no \v); \w and \W use JavaScript's own, which fold like Go's. */
const PERL: Record<string, string> = {
  d: '0-9',
  D: '\\D',
  w: '\\w',
  W: '\\W',
  s: '\\t\\n\\f\\r ',
  S: '\\0-\\x08\\x0b\\x0e-\\x1f\\x21-\\u{10ffff}',
};

/** The text of a Perl class escape (`d` for `\d`), or undefined. */
export function perlClass(letter: string): string | undefined {
  return Object.hasOwn(PERL, letter) ? PERL[letter] : undefined;
}

/** The ASCII letters' other case, and the two non-ASCII letters that fold to k and s (as Go's folding adds). */
function folded(ranges: Ranges): Ranges {
  const out: Ranges = [...ranges];
  for (const [lo, hi] of ranges) {
    for (let c = lo; c <= hi && c < 0x80; c++) {
      const ch = String.fromCharCode(c);
      const other = ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase();
      if (other !== ch) out.push([other.charCodeAt(0), other.charCodeAt(0)]);
      if (ch === 'k' || ch === 'K') out.push([0x212a, 0x212a]);
      if (ch === 's' || ch === 'S') out.push([0x17f, 0x17f]);
    }
  }
  return out;
}

/** The complement of a set of ranges within all code points. */
function complement(ranges: Ranges): Ranges {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Ranges = [];
  let next = 0;
  for (const [lo, hi] of sorted) {
    if (lo > next) out.push([next, lo - 1]);
    next = Math.max(next, hi + 1);
  }
  if (next <= 0x10ffff) out.push([next, 0x10ffff]);
  return out;
}

/** A POSIX class (`alpha` of `[:alpha:]`) as class text; negated after folding, as Go does. */
export function posixClass(name: string, negated: boolean, fold: boolean): string | undefined {
  const ranges = Object.hasOwn(POSIX, name) ? POSIX[name] : undefined;
  if (!ranges) return undefined;
  const base = fold ? folded(ranges) : ranges;
  return (negated ? complement(base) : base).map(([lo, hi]) => range(lo, hi)).join('');
}

/** Go 1.25's Unicode category aliases (canonical spelling) and their categories. */
const CATEGORY_ALIASES: Record<string, string> = Object.fromEntries(
  (
    'Casedletter:LC Closepunctuation:Pe Combiningmark:M Connectorpunctuation:Pc Control:Cc Currencysymbol:Sc Dashpunctuation:Pd ' +
    'Decimalnumber:Nd Enclosingmark:Me Finalpunctuation:Pf Format:Cf Initialpunctuation:Pi Letter:L Letternumber:Nl Lineseparator:Zl ' +
    'Lowercaseletter:Ll Mark:M Mathsymbol:Sm Modifierletter:Lm Modifiersymbol:Sk Nonspacingmark:Mn Number:N Openpunctuation:Ps Other:C ' +
    'Otherletter:Lo Othernumber:No Otherpunctuation:Po Othersymbol:So Paragraphseparator:Zp Privateuse:Co Punctuation:P Separator:Z ' +
    'Spaceseparator:Zs Spacingmark:Mc Surrogate:Cs Symbol:S Titlecaseletter:Lt Unassigned:Cn Uppercaseletter:Lu Cntrl:Cc Digit:Nd Punct:P'
  )
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
);

const CATEGORIES = new Set('C Cc Cf Co Cs Cn L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs'.split(' '));

/** Go's canonical spelling of a Unicode class name: first letter upper, the rest lower, no ` _-`. */
function canonicalName(name: string): string {
  const plain = name.replace(/[ _-]/g, '');
  return plain.slice(0, 1).toUpperCase() + plain.slice(1).toLowerCase();
}

function validClass(text: string): boolean {
  try {
    new RegExp(`[${text}]`, 'u');
    return true;
  } catch {
    return false;
  }
}

/** A `\p{name}` class as class text (negated for `\P` or `^name`), or undefined if Go does not know the name. */
export function unicodeClass(rawName: string, negated: boolean): string | undefined {
  const name = canonicalName(rawName);
  const p = negated ? 'P' : 'p';
  if (name === 'Any') return negated ? '' : range(0, 0x10ffff);
  if (name === 'Assigned') return `\\${negated ? 'p' : 'P'}{Cn}`;
  if (name === 'Ascii') return negated ? range(0x80, 0x10ffff) : range(0, 0x7f);
  if (name === 'Lc') return `\\${p}{LC}`;
  // Go's C is Cc, Cf, Co and Cs; Unicode's (and JavaScript's) also has the unassigned Cn.
  if (name === 'C') return negated ? '\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}\\p{Z}\\p{Cn}' : '\\p{Cc}\\p{Cf}\\p{Co}\\p{Cs}';
  const category = CATEGORIES.has(name) ? name : CATEGORY_ALIASES[name];
  if (category) return category === 'C' ? unicodeClass('C', negated) : `\\${p}{${category}}`;
  // Go looks scripts up by the canonical spelling too, so multi-word names like Old_Italic are not found there either.
  return validClass(`\\p{sc=${name}}`) ? `\\${p}{sc=${name}}` : undefined;
}

/** A test of one code point against JavaScript class text, cached for ASCII (most of what templates match). */
export function classTest(text: string, negated: boolean, fold: boolean): CharTest {
  const re = new RegExp(`^[${negated ? '^' : ''}${text}]$`, fold ? 'iu' : 'u');
  const ascii = new Uint8Array(128);
  return (cp) => {
    if (cp < 128) {
      if (ascii[cp] === 0) ascii[cp] = re.test(String.fromCharCode(cp)) ? 2 : 1;
      return ascii[cp] === 2;
    }
    return re.test(String.fromCodePoint(cp));
  };
}
