// A small rule set: the recommended rules of JavaScript, TypeScript, React's hooks and jsx-a11y, with
// formatting left to Prettier. Each rule turned off or tuned below says why.
import js from '@eslint/js'
import boundaries from 'eslint-plugin-boundaries'
import prettier from 'eslint-config-prettier'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// The layers of app/ (docs/decisions/045-layers.md), bottom first: a module imports its own layer or one
// below it, never one above. Cycles between folders are the dependency cruiser's (.dependency-cruiser.cjs).
const SERVER_CONCERNS = [
  // Lowest first: each may import those before it.
  ['language', 'app/server/language/**'],
  ['usage', 'app/server/usage/**'],
  ['engines', 'app/server/generation/engines/**'],
  ['narratives', 'app/server/narratives/**'],
  ['funders', 'app/server/funders/**'],
  ['drafter', 'app/server/generation/drafter/**'],
  ['variants', 'app/server/generation/variants/**'],
  ['job', 'app/server/generation/job/**'],
  ['accounts', 'app/server/accounts/**'],
  ['follow', 'app/server/generation/follow/**'],
  ['coach', 'app/server/coach/**'],
]
const BASE = ['shared', 'platform', 'cluster', 'edge', 'http']
const LAYER_ELEMENTS = [
  // Made by tools: the Prisma client (npm run db:generate) and the stylesheets that Vite bundles.
  { type: 'generated', pattern: 'app/generated/**', partialMatch: false },
  { type: 'styles', pattern: 'app/styles/**', partialMatch: false },
  { type: 'shared', pattern: ['app/shared/**', 'app/types/**'], partialMatch: false },
  { type: 'platform', pattern: 'app/server/platform/**', partialMatch: false },
  // What the processes share, one process or replicas (docs/decisions/046-one-topology-switch.md).
  { type: 'cluster', pattern: 'app/server/cluster/**', partialMatch: false },
  { type: 'edge', pattern: 'app/server/edge/**', partialMatch: false },
  { type: 'http', pattern: 'app/server/http/**', partialMatch: false },
  ...SERVER_CONCERNS.map(([type, pattern]) => ({ type, pattern, partialMatch: false })),
  // The entries wire the concerns together: the process (main/) and the work pool's thread (work/).
  { type: 'entry', pattern: ['app/server/main/**', 'app/server/work/**'], partialMatch: false },
  { type: 'ui', pattern: ['app/components/**', 'app/hooks/**'], partialMatch: false },
  // app/root.tsx, app/entry.*.tsx and app/routes.ts are routes too, on top: the plugin classifies folders,
  // not files, so nothing is checked from them, and any import of them from a layer below is refused.
  { type: 'routes', pattern: 'app/routes/**', partialMatch: false },
]
const SERVER = [...BASE, ...SERVER_CONCERNS.map(([type]) => type)]
const may = (from, to) => ({ from: { element: { type: from } }, allow: { to: { element: { types: { anyOf: to } } } } })
const LAYER_POLICIES = [
  may('shared', ['shared']),
  may('platform', ['shared', 'platform', 'generated']),
  may('cluster', ['shared', 'platform', 'cluster']),
  may('edge', ['shared', 'platform', 'cluster', 'edge']),
  may('http', ['shared', 'platform', 'cluster', 'edge', 'http']),
  ...SERVER_CONCERNS.map(([type], index) => may(type, [...BASE, ...SERVER_CONCERNS.slice(0, index + 1).map(([below]) => below)])),
  may('entry', [...SERVER, 'entry']),
  may('ui', ['shared', 'ui']),
  may('routes', [...SERVER, 'ui', 'styles', 'routes']),
]

export default tseslint.config(
  {
    ignores: ['build/', 'app/generated/', '.react-router/', 'node_modules/', 'data/', 'tests/.tmp/', 'test-results/', 'playwright-report/'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // A leading underscore marks what is destructured only to be left out.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Storage that is full or private is no error worth handling: an empty catch says so.
      'no-empty': ['error', { allowEmptyCatch: true }],
      // Text hygiene matches control characters on purpose, to remove them.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': LAYER_ELEMENTS,
      'import/resolver': { typescript: { project: './tsconfig.json' } },
    },
    rules: { 'boundaries/dependencies': ['error', { default: 'disallow', checkUnknownLocals: true, policies: LAYER_POLICIES }] },
  },
  {
    // A body that is no form is the sender's 400, which readForm answers; a bare formData() would throw a 500.
    files: ['app/routes/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='formData']",
          message: 'Read a form with readForm (app/server/http/form.server.ts): a body that is no form is a 400, not a 500.',
        },
      ],
    },
  },
  {
    // Tests read JSON answers whose shape is what they assert.
    files: ['tests/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['app/**/*.tsx', 'app/hooks/**/*.ts'],
    ...jsxA11y.flatConfigs.recommended,
    plugins: { ...jsxA11y.flatConfigs.recommended.plugins, 'react-hooks': reactHooks },
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // Below 48em a table's rows read as cards, and some browsers drop a table's semantics once its
      // display changes: the table roles are stated on purpose.
      'jsx-a11y/no-redundant-roles': ['error', { table: ['table'], thead: ['rowgroup'], tbody: ['rowgroup'] }],
      'jsx-a11y/no-interactive-element-to-noninteractive-role': ['error', { tr: ['row'], td: ['cell'] }],
      // A scrolling region must take focus so the keyboard can scroll it (WCAG 2.1.1).
      'jsx-a11y/no-noninteractive-tabindex': ['error', { roles: ['region'] }],
    },
  },
  prettier,
)
