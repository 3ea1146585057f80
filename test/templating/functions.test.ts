import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TemplateProblem } from '../../src/templating/template-problem.js';
import { normalize, slugify } from '../../src/templating/functions-text.js';
import { stringRenderer } from './render-string.js';

const render = stringRenderer();
const go = (text: string, params: unknown = {}) => render('goTemplate', text, params);

describe('normalize (Argo CD SanitizeName)', () => {
  const cases: [string, string][] = [
    ['Guestbook', 'guestbook'],
    ['my_cluster.EU', 'my-cluster.eu'],
    ['--a b--', 'a-b'],
    ['.x.', 'x'],
    ['héllo wörld', 'h-llo-w-rld'],
    ['a'.repeat(300), 'a'.repeat(253)],
    [`${'a'.repeat(252)}-b`, 'a'.repeat(252)],
  ];
  for (const [input, expected] of cases) it(`${input.slice(0, 20)} -> ${expected.slice(0, 20)}`, () => assert.equal(normalize(input), expected));
});

describe('slugify (Argo CD: normalize, then gosimple/slug with smart truncation)', () => {
  const cases: [unknown[], string][] = [
    [['Hello World'], 'hello-world'],
    [['feature/JIRA-123_new.thing'], 'feature-jira-123-new-thing'],
    [['a--b..c'], 'a-b-c'],
    [[10, 'Hello World Foo.Bar'], 'hello'],
    [[10, false, 'Hello World Foo.Bar'], 'hello-worl'],
    [[5, true, 'abcdefghij'], 'abcde'],
    [['x'.repeat(60)], 'x'.repeat(50)],
    [[`${'w'.repeat(45)}-${'z'.repeat(10)}`], 'w'.repeat(45)],
  ];
  for (const [args, expected] of cases) it(`slugify ${JSON.stringify(args).slice(0, 40)}`, () => assert.equal(slugify(...args), expected));
  it('is callable from a template with its optional arguments', () => {
    assert.equal(go('{{ slugify 63 false .b }}', { b: 'Feature/Add_Login' }), 'feature-add-login');
    assert.equal(go('{{ .b | slugify }}', { b: 'Feature/Add_Login' }), 'feature-add-login');
  });
});

describe('template functions', () => {
  const p = { s: 'Hello World', list: ['a', 'b'], m: { b: 2, a: '<x>' }, n: 7, e: '', path: 'apps/team-a/web' };
  const cases: [string, string][] = [
    ['{{ lower .s }}', 'hello world'],
    ['{{ upper .s }}', 'HELLO WORLD'],
    ['{{ title "hello wide world" }}', 'Hello Wide World'],
    ['{{ trunc 5 .s }}', 'Hello'],
    ['{{ trunc -5 .s }}', 'World'],
    ['{{ trunc 50 .s }}', 'Hello World'],
    ['{{ trimPrefix "apps/" .path }}', 'team-a/web'],
    ['{{ trimSuffix "/web" .path }}', 'apps/team-a'],
    ['{{ trimPrefix "zzz" .path }}', 'apps/team-a/web'],
    ['{{ replace "/" "-" .path }}', 'apps-team-a-web'],
    ['{{ trim "  x  " }}', 'x'],
    ['{{ trimAll "/" "//x//" }}', 'x'],
    ['{{ default "d" .e }}', 'd'],
    ['{{ default "d" .n }}', '7'],
    ['{{ default "d" .missing }}', 'd'],
    ['{{ empty .e }} {{ empty .s }}', 'true false'],
    ['{{ coalesce .missing .e "third" }}', 'third'],
    ['{{ ternary "yes" "no" true }}', 'yes'],
    ['{{ quote .s }}', '"Hello World"'],
    ['{{ quote "a\\"b" }}', '"a\\"b"'],
    ['{{ squote .s }}', "'Hello World'"],
    ['{{ toJson .m }}', '{"a":"\\u003cx\\u003e","b":2}'],
    ['{{ toRawJson .m }}', '{"a":"<x>","b":2}'],
    ['{{ toJson .list }}', '["a","b"]'],
    ['{{ toPrettyJson .list }}', '[\n  "a",\n  "b"\n]'],
    ['{{ toYaml .m }}', 'a: <x>\nb: 2'],
    ['{{ (fromYaml "a: 1").a }}', '1'],
    ['{{ (fromJson "{\\"a\\":\\"z\\"}").a }}', 'z'],
    ['{{ join "," .list }}', 'a,b'],
    ['{{ (split "/" .path)._2 }}', 'web'],
    ['{{ splitList "/" .path }}', '[apps team-a web]'],
    ['{{ index (splitList "/" .path) 1 }}', 'team-a'],
    ['{{ b64enc "user:pass" }}', 'dXNlcjpwYXNz'],
    ['{{ b64dec "dXNlcjpwYXNz" }}', 'user:pass'],
    ['{{ sha256sum "abc" }}', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['{{ contains "team" .path }} {{ hasPrefix "apps" .path }} {{ hasSuffix "x" .path }}', 'true true false'],
    ['{{ substr 0 4 .path }}', 'apps'],
    ['{{ repeat 3 "ab" }}', 'ababab'],
    ['{{ nospace "a b  c" }}', 'abc'],
    ['{{ cat "a" .n "b" }}', 'a 7 b'],
    ['{{ indent 2 "a\\nb" }}', '  a\n  b'],
    ['{{ nindent 2 "a" }}', '\n  a'],
    ['{{ add 1 2 3 }} {{ sub 5 2 }} {{ mul 2 3 }} {{ div 7 2 }} {{ mod 7 2 }} {{ add1 .n }}', '6 3 6 3 1 8'],
    ['{{ int "42" }} {{ atoi "x" }}', '42 0'],
    ['{{ toString .n }}', '7'],
    ['{{ list "a" 1 }}', '[a 1]'],
    ['{{ (dict "k" "v").k }}', 'v'],
    ['{{ get .m "b" }} {{ hasKey .m "a" }}', '2 true'],
    ['{{ keys .m }}', '[a b]'],
    ['{{ first .list }} {{ last .list }}', 'a b'],
    // Number parameters are float64s (JSON) and literals without a point are Go ints, which Go's eq will not compare.
    ['{{ eq .n 7.0 }} {{ eq (int .n) 7 }} {{ ne .s "x" }} {{ lt 1 2 }} {{ ge "b" "a" }}', 'true true true true true'],
    ['{{ print "a" "b" 1 2 }}', 'ab1 2'],
    ['{{ printf "%q %v %t %%" "x" .list true }}', '"x" [a b] true %'],
  ];
  for (const [template, expected] of cases) it(template, () => assert.equal(go(template, p), expected));

  const errors: [string, RegExp][] = [
    ['{{ b64dec "not base64!" }}', /b64dec: "not base64!" is not valid base64/],
    ['{{ trunc "x" .s }}', /trunc: expected a number, got "x"/],
    ['{{ div 1 0 }}', /div: integer divide by zero/],
    ['{{ eq 1 "1" }}', /eq: incompatible types for comparison/],
    ['{{ eq .n 7 }}', /eq: incompatible types for comparison: float64 7 and int 7/],
    ['{{ index .list 5 }}', /index: position 5 is out of range \(the list has 2 elements\)/],
    ['{{ repeat 100000000 "ab" }}', /repeat: the result would exceed 1000000 characters/],
    ['{{ range .s }}x{{ end }}', /range can't iterate over Hello World/],
    ['{{ fromJson "{" }}', /fromJson: "\{" is not valid JSON/],
    ['{{ index .m "constructor" }}', /index: access to 'constructor' is not allowed/],
  ];
  for (const [template, message] of errors) {
    it(`refuses ${template}`, () =>
      assert.throws(
        () => go(template, p),
        (e: unknown) => e instanceof TemplateProblem && message.test(e.message),
      ));
  }
});
