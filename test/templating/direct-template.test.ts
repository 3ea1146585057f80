import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Handlebars from 'handlebars';
import { compileDirect } from '../../src/templating/direct-template.js';
import { translateFasttemplate } from '../../src/templating/fasttemplate.js';
import { translateGoTemplate } from '../../src/templating/gotemplate/translate.js';
import { runtimeHelpers } from '../../src/templating/runtime-helpers.js';
import { RenderBudget, type MissingMode, type TemplateData } from '../../src/templating/scope.js';

const helpers = runtimeHelpers();
const handlebars = Handlebars.create();
for (const name of Object.keys(handlebars.helpers)) handlebars.unregisterHelper(name);
for (const [name, helper] of Object.entries(helpers)) handlebars.registerHelper(name, helper as Handlebars.HelperDelegate);
const knownHelpers = Object.fromEntries(Object.keys(helpers).map((name) => [name, true]));

/** The text, or the error message, a template run gives. */
function outcome(run: () => string): string {
  try {
    return `ok: ${run()}`;
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

const params = {
  name: 'guestbook',
  n: 3,
  flag: true,
  nothing: null,
  path: { path: 'apps/a', basename: 'a', segments: ['apps', 'a'] },
  metadata: { labels: { 'app.kubernetes.io/name': 'x', env: 'prod' } },
  list: ['p', 'q'],
};

/** Both runs of one template: the direct one and Handlebars' compiled one, on the same AST and the same data. */
function both(style: 'fasttemplate' | 'goTemplate', text: string, missing: MissingMode): { direct: string; handlebars: string } {
  const ast = style === 'goTemplate' ? translateGoTemplate(text) : translateFasttemplate(text);
  const direct = compileDirect(ast, helpers);
  assert.ok(direct, `${text} has no block and must run directly`);
  const compiled = handlebars.compile(ast, { noEscape: true, strict: false, data: true, ignoreStandalone: true, knownHelpers, knownHelpersOnly: true });
  const data = (): TemplateData => ({ root: params, scope: { missing, patch: false, budget: new RenderBudget(1_000, 1_000_000) }, goDot: params, goVars: {} });
  const options = () => ({ data: data(), allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false, allowCallsToHelperMissing: false });
  return { direct: outcome(() => direct(params, options())), handlebars: outcome(() => compiled(params, options())) };
}

describe('direct templates (block-free programs without Handlebars)', () => {
  const fast = [
    'plain {{name}}-{{path.basename}} tail',
    '{{path}} {{path[1]}} {{metadata.labels.app.kubernetes.io/name}} {{ n }} {{flag}}',
    '{{missing}}',
    '{{nothing}}',
    '{{list}}',
    '{{}}',
    '{{path.nope}} {{name[3]}}',
    'a {{name}}\nb {{path.basename}}',
  ];
  const go = [
    '{{.name}}-{{.path.basename | upper}}',
    '{{ index .path.segments 1 }}/{{ .metadata.labels.env | default "none" }}',
    '{{ printf "%s-%d" .name 42 }} {{ .n }} {{ .flag }} {{ 7 }}',
    '{{ .missing }}',
    '{{ .missing | default "fallback" }}',
    '{{ .name.deeper }}',
    '{{ $.name }} {{ (.path).basename }}',
    '{{ toJson .metadata }}',
    '{{ fail "stop" }}',
  ];
  for (const missing of ['strict', 'keep', 'error'] as const) {
    for (const text of fast)
      it(`fasttemplate ${JSON.stringify(text)}, missing=${missing}: same text or error as Handlebars`, () => {
        const { direct, handlebars: expected } = both('fasttemplate', text, missing);
        assert.equal(direct, expected);
      });
    for (const text of go)
      it(`goTemplate ${JSON.stringify(text)}, missing=${missing}: same text or error as Handlebars`, () => {
        const { direct, handlebars: expected } = both('goTemplate', text, missing);
        assert.equal(direct, expected);
      });
  }

  it('leaves programs with blocks to Handlebars', () => {
    for (const text of ['{{ if .flag }}y{{ end }}', '{{ range .list }}{{ . }}{{ end }}', '{{ with .path }}{{ .basename }}{{ end }}'])
      assert.equal(compileDirect(translateGoTemplate(text), helpers), undefined, text);
  });
});
