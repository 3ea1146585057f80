// Lint rules for the whole repository: typescript-eslint's type-aware recommended set, the folder layers of
// src/ (an import may only point down), and warnings at the design's size limits.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Folder layers of src/, lowest first. A folder imports only folders of lower layers: never a sibling of its
// own layer, never a higher one, never test/ or bench/. `import type`, `export ... from` and `import()` count.
const LAYERS = [
  ['runtime'],
  ['model', 'log'],
  ['kube', 'queue', 'git', 'scm', 'templating'],
  ['generators'],
  ['tenancy'],
  ['controller'],
  ['config'],
  ['server'],
  ['app', 'environment'],
  ['cli'],
];
const ALL_FOLDERS = LAYERS.flat();
const specifierOf = (folders) => `^(\\.\\./)+(${folders.join('|')})(/|$)`;

/** One config block per folder: the folders it may not import, as import patterns and as `import()`. */
const layerRules = LAYERS.flatMap((layer, index) =>
  layer.map((folder) => {
    const below = LAYERS.slice(0, index).flat();
    const banned = [...ALL_FOLDERS.filter((f) => f !== folder && !below.includes(f)), 'test', 'bench'];
    const message = `src/${folder}/ may import only ${below.join(', ') || 'nothing else of src/'} (the layers in eslint.config.js)`;
    return {
      files: [`src/${folder}/**/*.ts`],
      rules: {
        'no-restricted-imports': ['error', { patterns: [{ regex: specifierOf(banned), message }] }],
        'no-restricted-syntax': ['error', { selector: `ImportExpression[source.value=/${specifierOf(banned).replaceAll('/', '\\u002F')}/]`, message }],
      },
    };
  }),
);

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'bench/results/', 'charts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // node:test's describe/it return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }] },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // The design's limits: files under ~300 lines, functions under ~40. Warnings: they point at what to split.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['warn', { max: 300, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['warn', { max: 40, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  ...layerRules,
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: 'readonly', console: 'readonly' },
    },
  },
);
