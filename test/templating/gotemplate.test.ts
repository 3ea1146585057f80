import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MissingParameterError, TemplateProblem } from '../../src/templating/template-problem.js';
import { clusterParams, gitDirectoryParams, stringRenderer } from './render-string.js';

const render = stringRenderer();
const go = (text: string, params: unknown, missing: 'strict' | 'keep' | 'error' = 'strict') => render('goTemplate', text, params, missing);

const list = {
  cluster: 'engineering-dev',
  url: 'https://kubernetes.default.svc',
  items: ['a', 'b', 'c'],
  envs: { prod: 'p', dev: 'd' },
  empty: [],
  n: 3,
  big: 1234567,
  flag: false,
};

describe('goTemplate style (goTemplate: true)', () => {
  const cases: [string, string, unknown, string][] = [
    // Argo CD docs examples
    ['git directory basename', '{{.path.basename}}', gitDirectoryParams, 'guestbook'],
    ['git directory path', '{{.path.path}}', gitDirectoryParams, 'apps/guestbook'],
    ['path segment with index', '{{index .path.segments 1}}', gitDirectoryParams, 'guestbook'],
    ['cluster name', '{{.name}}-guestbook', clusterParams, 'staging-east-guestbook'],
    ['label through index', '{{index .metadata.labels "app.kubernetes.io/part-of"}}', clusterParams, 'shop'],
    ['label field', '{{.metadata.labels.environment}}', clusterParams, 'staging'],
    [
      'list element path',
      'applicationset/examples/list-generator/guestbook/{{.cluster}}',
      list,
      'applicationset/examples/list-generator/guestbook/engineering-dev',
    ],
    ['pipeline into normalize', '{{ .name | normalize }}', { name: 'My_Cluster.EU' }, 'my-cluster.eu'],
    ['pipeline chain', '{{ .cluster | upper | trunc 5 }}', list, 'ENGIN'],
    ['default for a missing parameter', '{{ .region | default "us-east-1" }}', list, 'us-east-1'],
    ['default keeps a present value', '{{ default "x" .cluster }}', list, 'engineering-dev'],
    ['if / else', '{{if .flag}}on{{else}}off{{end}}', list, 'off'],
    ['else if', '{{if eq .cluster "prod"}}p{{else if eq .cluster "engineering-dev"}}d{{else}}x{{end}}', list, 'd'],
    ['if on a missing parameter is false, not an error', '{{if .autoSync}}auto{{else}}manual{{end}}', list, 'manual'],
    ['range over a list with dot', '{{range .items}}[{{.}}]{{end}}', list, '[a][b][c]'],
    ['range with index and value', '{{range $i, $v := .items}}{{$i}}={{$v}};{{end}}', list, '0=a;1=b;2=c;'],
    ['range over a map in key order', '{{range $k, $v := .envs}}{{$k}}:{{$v}} {{end}}', list, 'dev:d prod:p '],
    ['range reads the root through $', '{{range .items}}{{$.cluster}}-{{.}} {{end}}', list, 'engineering-dev-a engineering-dev-b engineering-dev-c '],
    ['range else on an empty list', '{{range .empty}}x{{else}}none{{end}}', list, 'none'],
    ['with', '{{with .envs}}{{.prod}}{{end}}', list, 'p'],
    ['whitespace trim markers', 'a  {{- .n -}}  b', list, 'a3b'],
    ['comments disappear', 'a{{/* note */}}b', list, 'ab'],
    ['parenthesised pipeline with a field', '{{ (split "/" .path.path)._1 }}', gitDirectoryParams, 'guestbook'],
    ['numbers print as Go prints float64', '{{.n}} {{.big}}', list, '3 1.234567e+06'],
    ['lists and maps print as Go prints them', '{{.items}} {{.envs}}', list, '[a b c] map[dev:d prod:p]'],
    ['printf', '{{ printf "%s-%d" .cluster .n }}', list, 'engineering-dev-3'],
    ['and / or / not', '{{ and .n .cluster }} {{ or .flag "fallback" }} {{ not .flag }}', list, 'engineering-dev fallback true'],
    ['len counts bytes like Go', '{{ len "é" }} {{ len .items }}', list, '2 3'],
    ['raw string literal', '{{ `a"b` }}', list, 'a"b'],
    ['a value containing braces is printed literally, never re-rendered', '{{.x}}', { x: '{{.y}}', y: 'no' }, '{{.y}}'],
    ['text between actions is kept exactly, even around blocks on their own lines', 'a\n  {{ if .n }}\n  b\n  {{ end }}\n', list, 'a\n  \n  b\n  \n'],
  ];
  for (const [title, template, params, expected] of cases) {
    it(title, () => assert.equal(go(template, params), expected));
  }
});

describe('goTemplate missing parameters', () => {
  it('strict (default): printing a missing parameter is an error naming it', () => {
    assert.throws(
      () => go('{{.path.basename}}-{{.cluster}}', gitDirectoryParams),
      (e: unknown) => e instanceof MissingParameterError && e.message === "parameter '.cluster' is missing from the parameter set",
    );
  });
  it('strict: names the deepest present prefix', () => {
    assert.throws(() => go('{{.path.nope}}', gitDirectoryParams), /parameter '\.path\.nope' is missing/);
  });
  it('strict: passing a missing parameter to a function is an error naming both', () => {
    assert.throws(() => go('{{ .cluster | upper }}', {}), /parameter '\.cluster' is missing from the parameter set \(passed to 'upper'\)/);
  });
  it('keep: Go prints <no value>, as Argo CD does without missingkey=error', () => {
    assert.equal(go('{{.cluster}}', {}, 'keep'), '<no value>');
  });
  it('missingkey=error: even a guarded reference is an error, as in Go', () => {
    assert.throws(() => go('{{ .cluster | default "x" }}', {}, 'error'), /parameter '\.cluster' is missing from the parameter set \(missingkey=error\)/);
  });
  it('reading a field of a string is an error naming it', () => {
    assert.throws(() => go('{{.cluster.name}}', list), /'\.cluster\.name': cannot read field 'name' of the string engineering-dev/);
  });
});

describe('goTemplate constructs outside the supported set are refused with the construct and its place', () => {
  const refusals: [string, RegExp][] = [
    ['{{ template "x" }}', /^'\{\{ template "x" \}\}' at line 1, column 1: 'template' is not supported/],
    ['a\n{{define "x"}}y{{end}}', /^'\{\{define "x"\}\}' at line 2, column 1: 'define' is not supported/],
    ['{{ block "x" . }}{{end}}', /'block' is not supported/],
    ['{{range .items}}{{break}}{{end}}', /'break' is not supported/],
    ['{{ $x := .cluster }}', /variable declarations are only supported in 'range \$i, \$v := \.\.\.'/],
    ['{{ env "HOME" }}', /^'\{\{ env "HOME" \}\}' at line 1, column 1: function 'env' is not supported/],
    ['{{ expandenv "$HOME" }}', /function 'expandenv' is not supported/],
    ['{{ getHostByName "example.com" }}', /function 'getHostByName' is not supported/],
    ['{{ readFile "/etc/passwd" }}', /function 'readFile' is not supported/],
    ['{{ call .f }}', /^'\{\{ call \.f \}\}' at line 1, column 1: function 'call' is refused: it calls a function value held in the data/],
    ['{{ now | date "2006" }}', /function 'now' is refused: its output changes on every render, so Applications would never settle/],
    ["{{ 'a' }}", /unexpected ''a''/],
    ['{{ .a .b }}', /only a function can take arguments/],
    ['{{ if .a }}x', /^'\{\{ if \.a \}\}' at line 1, column 1: the template ends before its '\{\{end\}\}'/],
    ['{{ range .a }}{{ else }}x{{ else }}y{{ end }}', /a second 'else' in the same block/],
    ['{{ end }}', /'end' without a matching 'if', 'range' or 'with'/],
    ['x {{ .a', /unclosed action at line 1, column 3/],
    ['{{ .constructor }}', /access to 'constructor' is not allowed/],
    ['{{ .a.__proto__ }}', /access to '__proto__' is not allowed/],
  ];
  for (const [template, message] of refusals) {
    it(template, () =>
      assert.throws(
        () => go(template, list),
        (e: unknown) => e instanceof TemplateProblem && message.test(e.message),
      ),
    );
  }
});
