// A small rule set: the recommended rules of JavaScript, TypeScript, React's hooks and jsx-a11y, with
// formatting left to Prettier. Each rule turned off or tuned below says why.
import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

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
