// Lint rules and the folder boundaries of shared/CONVENTIONS.md:
// shared/ is isomorphic (no node, DOM or electron); the renderer imports neither electron nor node;
// the preload reaches only electron's renderer-side modules; the server knows nothing of the apps.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

// Exact module names (as `paths`): a pattern would also match local files such as ./constants.
const noNodePaths = nodeBuiltins.map((name) => ({ name, message: 'This folder runs outside Node: no node built-ins.' }));
const noNodePatterns = { group: ['node:*'], message: 'This folder runs outside Node: no node built-ins.' };
const noElectron = { group: ['electron', 'electron/*'], message: 'Only desktop/src/main (and the preload) may import electron.' };
const noServer = { group: ['**/server/**'], message: 'Reach the server over HTTP, never by import.' };
const noDesktopMain = { group: ['**/desktop/src/main/**', '**/main/**'], message: 'The main process is reached through the DesktopBridge.' };
const noUi = { group: ['react', 'react-dom', 'react/*', 'react-dom/*', '**/renderer/**'], message: 'shared/ and server/ hold no UI code.' };
const noAppCode = { group: ['**/desktop/**'], message: 'The server does not import desktop code.' };
const serverBase = [noElectron, noUi, noAppCode];

// Server layers (README "Map of folders"): routes -> presenters -> domain folders -> db/models.
// Domain folders hold the rules and answer domain records: they know neither HTTP nor JSON shapes,
// and are built by the one wiring file (server/src/container.ts), never by each other.
const serverDomainFolders = [
  'accounts',
  'apiKeys',
  'audit',
  'contacts',
  'db',
  'integratorApi',
  'models',
  'notifications',
  'payments',
  'platformMessages',
  'pricing',
  'providerAccounts',
  'reports',
  'retention',
  'security',
  'sending',
  'templates',
  'throttling',
  'uploads',
  'wallet',
];
const noPresenters = { group: ['**/presenters', '**/presenters/**'], message: 'Services answer domain records; routes present them (presenters/ only from routes/).' };
const noHttpLayer = { group: ['**/routes', '**/routes/**', '**/middleware', '**/middleware/**', '**/container', '**/app'], message: 'Domain folders do not reach up into HTTP handling or the wiring.' };
const noKoa = { group: ['koa', 'koa-*', '@koa/*'], message: 'Koa belongs to routes/, middleware/ and app.ts: a service takes plain values, not a context.' };
const noDb = { group: ['**/db', '**/db/**'], message: 'Routes reach the database through a service (container.ts), never db/ itself.' };

export default tseslint.config(
  {
    ignores: ['node_modules/', 'dist/', 'out/', 'release/', 'data/', 'test-results/', 'playwright-report/', 'coverage/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-nocheck': true, 'ts-ignore': true, 'ts-expect-error': 'allow-with-description' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'smart'],
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs,cjs,ts,mts}'],
    ignores: ['desktop/src/renderer/**', 'shared/**'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Served to browsers by the development server (the sandbox checkout window).
    files: ['server/src/payments/sandbox-checkout.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
    // A plain ES5 script, as Razorpay's own checkout.js is: `var self = this` is its idiom.
    rules: { '@typescript-eslint/no-this-alias': 'off' },
  },
  {
    files: ['shared/**/*.ts'],
    // Tests run in Node (they read the spec from disk); only shipped shared code is isomorphic.
    ignores: ['shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: noNodePaths, patterns: [noNodePatterns, noElectron, noServer, noUi] }],
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'localStorage', 'sessionStorage', 'navigator', 'process', 'Buffer', 'require'].map((name) => ({
          name,
          message: 'shared/ runs in Node, the browser and Electron alike: no environment globals.',
        })),
      ],
    },
  },
  {
    files: ['desktop/src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { paths: noNodePaths, patterns: [noNodePatterns, noElectron, noServer, noDesktopMain] }],
    },
  },
  {
    files: ['desktop/src/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: noNodePaths, patterns: [noNodePatterns, noServer, noDesktopMain] }],
    },
  },
  {
    files: ['desktop/src/main/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [noServer, { group: ['**/renderer/**'], message: 'The main process does not import renderer code.' }] }],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: serverBase }],
    },
  },
  {
    files: serverDomainFolders.map((folder) => `server/src/${folder}/**/*.ts`),
    rules: {
      'no-restricted-imports': ['error', { patterns: [...serverBase, noPresenters, noHttpLayer, noKoa] }],
    },
  },
  {
    // The simulator stands in for Meta's HTTP API, so it has its own Koa router; it presents nothing of ours.
    files: ['server/src/simulator/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...serverBase, noPresenters, noHttpLayer] }],
    },
  },
  {
    files: ['server/src/presenters/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...serverBase, noHttpLayer, noKoa] }],
    },
  },
  {
    files: ['server/src/routes/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...serverBase, noDb] }],
    },
  },
);
