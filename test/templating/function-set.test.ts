import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TemplateProblem } from '../../src/templating/template-problem.js';
import { TEMPLATE_FUNCTIONS } from '../../src/templating/functions.js';
import { REFUSED_FUNCTIONS } from '../../src/templating/functions-refused.js';
import { renderAsArgoCd } from './function-table.js';
import { stringRenderer } from './render-string.js';

const render = stringRenderer();
const go = (text: string, params: unknown = {}) => render('goTemplate', text, params);

/**
 * The function names of Argo CD v3.2.6's goTemplate: sprig v3.3.0's GenericFuncMap without env, expandenv and
 * getHostByName (applicationset/utils/utils.go), Argo CD's five, and Go's text/template builtins.
 */
const ARGO_CD_FUNCTIONS = `
abbrev abbrevboth add add1 add1f addf adler32sum ago all any append atoi b32dec b32enc b64dec b64enc base bcrypt biggest
buildCustomCert camelcase cat ceil chunk clean coalesce compact concat contains date dateInZone dateModify date_in_zone
date_modify decryptAES deepCopy deepEqual default derivePassword dict dig dir div divf duration durationRound empty encryptAES
ext fail first float64 floor fromJson genCA genCAWithKey genPrivateKey genSelfSignedCert genSelfSignedCertWithKey
genSignedCert genSignedCertWithKey get has hasKey hasPrefix hasSuffix hello htmlDate htmlDateInZone htpasswd indent initial
initials int int64 isAbs join kebabcase keys kindIs kindOf last list lower max maxf merge mergeOverwrite min minf mod mul
mulf mustAppend mustChunk mustCompact mustDateModify mustDeepCopy mustFirst mustFromJson mustHas mustInitial mustLast
mustMerge mustMergeOverwrite mustPrepend mustPush mustRegexFind mustRegexFindAll mustRegexMatch mustRegexReplaceAll
mustRegexReplaceAllLiteral mustRegexSplit mustRest mustReverse mustSlice mustToDate mustToJson mustToPrettyJson
mustToRawJson mustUniq mustWithout must_date_modify nindent nospace now omit osBase osClean osDir osExt osIsAbs pick pluck
plural prepend push quote randAlpha randAlphaNum randAscii randBytes randInt randNumeric regexFind regexFindAll regexMatch
regexQuoteMeta regexReplaceAll regexReplaceAllLiteral regexSplit repeat replace rest reverse round semver semverCompare
seq set sha1sum sha256sum sha512sum shuffle slice snakecase sortAlpha split splitList splitn squote sub subf substr swapcase
ternary title toDate toDecimal toJson toPrettyJson toRawJson toString toStrings trim trimAll trimPrefix trimSuffix trimall
trunc tuple typeIs typeIsLike typeOf uniq unixEpoch unset until untilStep untitle upper urlJoin urlParse uuidv4 values
without wrap wrapWith
normalize slugify toYaml fromYaml fromYamlArray
and call html index js len not or print printf println urlquery eq ge gt le lt ne
`
  .split(/\s+/)
  .filter(Boolean);

describe("the function set is Argo CD v3.2.6's", () => {
  it('every Argo CD function is implemented or refused by name, never both', () => {
    for (const name of ARGO_CD_FUNCTIONS) {
      const implemented = Object.hasOwn(TEMPLATE_FUNCTIONS, name);
      const refused = Object.hasOwn(REFUSED_FUNCTIONS, name);
      assert.ok(implemented !== refused, `${name}: implemented ${implemented}, refused ${refused}`);
    }
  });
  it('nothing is implemented or refused that Argo CD does not have', () => {
    const known = new Set(ARGO_CD_FUNCTIONS);
    for (const name of [...Object.keys(TEMPLATE_FUNCTIONS), ...Object.keys(REFUSED_FUNCTIONS)]) assert.ok(known.has(name), name);
  });
  it('names outside Argo CD are reported as unsupported, not refused', () => {
    assert.throws(() => go('{{ env "HOME" }}'), /function 'env' is not supported \(see docs\/templating\.md/);
  });
});

describe('refused functions fail when parsed, naming the function and the reason', () => {
  const calls: Record<string, string> = {
    now: '{{ now }}',
    date: '{{ date "2006-01-02" .t }}',
    toDate: '{{ toDate "2006-01-02" "2024-05-06" }}',
    randAlphaNum: '{{ randAlphaNum 8 }}',
    uuidv4: '{{ uuidv4 }}',
    genCA: '{{ genCA "ca" 365 }}',
    bcrypt: '{{ bcrypt "pw" }}',
    call: '{{ call .f }}',
  };
  for (const [name, reason] of Object.entries(REFUSED_FUNCTIONS)) {
    const template = calls[name] ?? `{{ ${name} .x }}`;
    it(name, () =>
      assert.throws(
        () => go(template, { x: 'y', t: 0 }),
        (e: unknown) => e instanceof TemplateProblem && e.message.includes(`function '${name}' is refused: ${reason}`),
      ),
    );
  }
  it('says why the clock functions are refused', () => {
    assert.throws(
      () => go('x {{ now | date "2006" }}'),
      (e: unknown) =>
        e instanceof TemplateProblem &&
        e.message ===
          `'{{ now | date "2006" }}' at line 1, column 3: function 'now' is refused: its output changes on every render, so Applications would never settle`,
    );
  });
  it('refuses in a branch that would not run, as the whole template is checked first', () => {
    assert.throws(() => go('{{ if false }}{{ uuidv4 }}{{ end }}'), /function 'uuidv4' is refused: its output is random/);
  });
});

describe('Go integers and float64 parameters', () => {
  it('prints integers as Go prints ints and number parameters as Go prints float64s', () => {
    assert.equal(
      go('{{ 1000000 }} {{ .n }} {{ add .n 1 }} {{ int .n }} {{ mul 1000 1000 }} {{ mulf 1000 1000 }}', { n: 1000000 }),
      '1000000 1e+06 1000001 1000000 1000000 1e+06',
    );
  });
  it('compares like Go: an int literal and a float64 parameter are incompatible', () => {
    assert.equal(go('{{ eq (int .n) 3 }} {{ eq .n 3.0 }} {{ lt (len .l) 3 }}', { n: 3, l: [1] }), 'true true true');
    assert.throws(() => go('{{ lt .n 3 }}', { n: 3 }), /lt: incompatible types for comparison: float64 3 and int 3/);
  });
  it('reads integer literals as Go does: octal with a leading 0, hex, and an error for 08', () => {
    assert.equal(go('{{ 017 }} {{ 0x1F }} {{ -5 }} {{ 1e3 }}'), '15 31 -5 1000');
    assert.throws(() => go('{{ 08 }}'), /the number 08 is out of range/);
  });
});

describe('where this renderer deliberately differs from Argo CD', () => {
  it('keys and values come in key order (Go returns them in random map order)', () => {
    assert.equal(go('{{ keys .m }} {{ values .m }}', { m: { b: 2, a: 'x' } }), '[a b] [x 2]');
  });
  it('set, unset and merge change a map the template made, but only a copy of a parameter map', () => {
    const params = { m: { a: 1, nested: { b: 2 } } };
    assert.equal(
      go('{{ toJson (merge .m (dict "c" 3 "nested" (dict "d" 4))) }} {{ toJson .m }}', params),
      '{"a":1,"c":3,"nested":{"b":2,"d":4}} {"a":1,"nested":{"b":2}}',
    );
    assert.equal(go('{{ toJson (set .m "a" 9) }} {{ .m.a }}', params), '{"a":9,"nested":{"b":2}} 1');
    assert.deepEqual(params, { m: { a: 1, nested: { b: 2 } } });
    assert.equal(go('{{ range $d := list (dict "a" 1) }}{{ set $d "b" 2 | len }}{{ $d }}{{ end }}'), '2map[a:1 b:2]');
  });
  it('refuses type questions whose answer depends on a Go type it does not track', () => {
    assert.equal(
      go('{{ typeOf "x" }} {{ typeOf .f }} {{ kindOf .l }} {{ kindIs "map" .l }} {{ typeIs "string" .l }}', { f: 1.5, l: [] }),
      'string float64 slice false false',
    );
    assert.throws(() => go('{{ typeOf 1 }}'), /typeOf: cannot tell the Go type of the integer 1 \(Go's int or int64\)/);
    assert.throws(() => go('{{ kindOf (add 1 1) }}'), /kindOf: cannot tell the Go type of the integer 2/);
    assert.throws(() => go('{{ typeOf (list) }}'), /typeOf: cannot tell the Go type of a list/);
    assert.throws(() => go('{{ deepEqual (list 1) (list 1) }}'), /deepEqual: cannot tell the Go type of a list/);
    assert.equal(go('{{ deepEqual (list 1) (list 2) }} {{ deepEqual "a" "a" }}'), 'false true');
  });
  it('refuses duration and durationRound of an integer (sprig reads an int as 0 but an int64 as a count)', () => {
    assert.throws(() => go('{{ duration 95 }}'), /duration: cannot tell whether the integer 95 is Go's int .* pass a string such as "95" instead/);
    assert.equal(go('{{ duration "95" }} {{ duration .n }}', { n: 95 }), '1m35s 0s');
  });
  it('refuses invalid base64 and base32 instead of printing the decoder error', () => {
    assert.throws(() => go('{{ b32dec "MZXW6" }}'), /b32dec: "MZXW6" is not valid base32/);
    assert.throws(() => go('{{ b64dec "YQ" }}'), /b64dec: "YQ" is not valid base64/);
  });
  it('bounds the lists until, untilStep and seq build', () => {
    assert.equal(go('{{ until 1000000 | len }}'), '1000000');
    assert.throws(() => go('{{ until 1000001 }}'), /the sequence would have 1000001 elements; at most 1000000 are allowed/);
  });
  it('matches in linear time, so a pattern cannot stall the controller (Go RE2 guarantees the same)', () => {
    const started = performance.now();
    assert.equal(renderAsArgoCd('{{ regexMatch "^(a+)+$" .s }}', { s: `${'a'.repeat(20000)}b` }), 'false');
    assert.ok(performance.now() - started < 5000);
  });
});
