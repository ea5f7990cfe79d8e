// @ts-check
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const prettier = require('eslint-config-prettier');
const globals = require('globals');

/**
 * Markup in a test: a tag, an attribute or an entity (`<h1`, `</a>`, `href="`, `&#39;`) where a page's HTML is
 * asserted, searched or scraped with a regular expression. Markup given to the app as input is not matched.
 */
const MARKUP = String.raw`<[a-zA-Z][a-zA-Z0-9]*(?![\w-])|<\x2f[a-zA-Z]|<!|(^|\s)(href|src|class|id|name|value|action|method|rel|dir|lang|type|role|alt|for|datetime|width|height|poster|(data|aria)-[a-z-]+)="|&(#\d+|amp|lt|gt|quot);`;
function markupRules(message) {
  const asserting = 'CallExpression[callee.property.name=/^(toContain|toMatch)$/]';
  const searching = 'CallExpression[callee.property.name=/^(split|indexOf|lastIndexOf|includes|startsWith|endsWith)$/]';
  const looked = `:matches(${asserting}, ${searching})`;
  return [
    { selector: `${looked} > Literal[value=/${MARKUP}/]`, message },
    { selector: `${looked} > TemplateLiteral > TemplateElement[value.raw=/${MARKUP}/]`, message },
    { selector: `Literal[regex.pattern=/${MARKUP}/]`, message },
    { selector: `NewExpression[callee.name='RegExp'] TemplateElement[value.raw=/${MARKUP}/]`, message },
    { selector: `NewExpression[callee.name='RegExp'] > Literal[value=/${MARKUP}/]`, message },
  ];
}

module.exports = tseslint.config(
  { ignores: ['**/dist/', 'node_modules/', 'coverage/', 'docs/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
  // TypeScript with type information: a promise nobody awaits or handles is an error, and so is
  // handing an async function to a caller that ignores what it returns.
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.json', './packages/graph-emulator/tsconfig.test.json'],
        tsconfigRootDir: __dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Tests read untyped JSON bodies (supertest's `any`) all the time: checking each access would be noise.
  {
    files: ['test/**/*.ts', 'packages/*/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Stand-in loaders and handlers are async to match the interface they replace.
      '@typescript-eslint/require-await': 'off',
      // Node-style callbacks hand over `unknown` errors; the tests pass them on as they come.
      '@typescript-eslint/prefer-promise-reject-errors': 'off',
    },
  },
  // Outside the browser, tests read a page as a person does: through test/support/dom.ts and words.ts (text,
  // headings, links by text, forms, images), never through markup strings, so a renamed class or a reordered
  // attribute fails no test about behaviour (the selectors below say where markup counts).
  {
    files: ['test/**/*.ts', 'packages/*/test/**/*.ts'],
    ignores: ['test/e2e/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...markupRules(
          'tests outside the browser assert what a person sees through test/support/dom.ts and words.ts (the emulator: its test/dom.ts), not markup',
        ),
      ],
    },
  },
  {
    files: ['public/**/*.js'],
    languageOptions: { globals: { ...globals.browser }, sourceType: 'script' },
  },
  {
    files: ['**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
