// Lint rules, including the import boundaries of ARCHITECTURE.md's table: each folder may import only downward.
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import tableOwners from './eslint-rules/table-owners.js';
import project from './scripts/lint-rules.mjs';

const nodeBuiltins = {
  regex: '^(node:|fs$|path$|os$|child_process$|crypto$|http$|https$|net$|stream$|url$|util$)',
  message: 'Node built-ins do not belong here.',
};
const electron = { regex: '^electron(/|$)', message: 'Only src/main/electron and src/preload may import electron.' };
const sqlite = {
  regex: '^better-sqlite3$',
  message: 'SQLite belongs to the engine (src/main/engine/store) and the sandbox server.',
};
const transportSyntax = [
  {
    selector: "MemberExpression[property.name='kind'][object.name=/[bB]ridge$/]",
    message: 'Ask the bridge for what its host can do (bridge.capabilities), never for its transport.',
  },
  {
    selector: "MemberExpression[object.name='window'][property.name='api']",
    message: "The preload's window.api belongs to the Electron transport (src/renderer/bridge/).",
  },
];
const rel = (folder, message) => ({ regex: `(^|/)(\\.\\./)+(${folder})(/|$)`, message });

const rendererBoundary = [
  nodeBuiltins,
  electron,
  sqlite,
  rel('main|preload|server', 'The renderer reaches the engine only through the bridge.'),
];
const transports = {
  regex: '(^|/)bridge/(electronBridge|websocketBridge|hostFiles)$',
  message:
    'Ask the bridge for what its host can do (bridge.capabilities); the transports live in src/renderer/bridge/.',
};

const boundary = (files, patterns) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'coverage/**',
      '.tmp/**',
      '.bench-data/**',
      '.prof*',
      'src/main/engine/platform/generated/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  // One owner per table: SQL naming a table lives in the module that owns it (ARCHITECTURE.md, "one owner per room").
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { local: { rules: { 'table-owners': tableOwners } } },
    rules: {
      'local/table-owners': [
        'error',
        {
          owners: {
            profiles: 'src/main/engine/profiles/store.ts',
            person_erasures: 'src/main/engine/resources/person/erasure-store.ts',
            jobs: 'src/main/engine/jobs/journal.ts',
            job_items: 'src/main/engine/jobs/journal.ts',
            job_item_runs: 'src/main/engine/jobs/journal.ts',
            cached_lists: 'src/main/engine/store/list-freshness.ts',
            resource_records: 'src/main/engine/resources/cache.ts',
          },
        },
      ],
    },
  },
  // Scripts and benchmarks talk to a terminal.
  { files: ['scripts/**', 'bench/**'], rules: { 'no-console': 'off' } },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  boundary(
    ['src/shared/**'],
    [
      nodeBuiltins,
      electron,
      sqlite,
      // Only zod, and temporal-polyfill: calendar dates in a zone (ranges, exports, schedules) need the Temporal
      // API, which Node and Electron do not ship yet; both sides of the contract must agree on them.
      {
        regex: '^(?!(zod|temporal-polyfill)$)[^.]',
        message: 'src/shared imports zod and temporal-polyfill only.',
      },
      rel('main|renderer|preload|server', 'src/shared imports nothing from the other layers.'),
    ],
  ),
  boundary(
    ['src/main/engine/**'],
    [
      electron,
      rel('electron|host|cli', 'The engine knows no shell.'),
      rel(
        'renderer|preload|server',
        'The engine reaches the sandbox server over HTTP or as a process, never by import.',
      ),
    ],
  ),
  // SQL lives in store modules: the database itself (store/), the job journal, and files named store.ts, *-store.ts,
  // cache.ts or *-cache.ts. Areas get their stores from the engine (each area's …Stores(db)), never the database.
  {
    files: ['src/main/**/*.ts'],
    ignores: [
      'src/main/engine/store/**',
      'src/main/engine/jobs/journal.ts',
      'src/main/**/store.ts',
      'src/main/**/*-store.ts',
      'src/main/**/cache.ts',
      'src/main/**/*-cache.ts',
    ],
    plugins: { project },
    rules: { 'project/sql-in-stores': 'error' },
  },
  // Each engine area (a folder of src/main/engine) exposes its index.ts to shells and other areas, nothing deeper.
  {
    files: ['src/main/**/*.ts'],
    plugins: { project },
    rules: { 'project/area-index-only': 'error' },
  },
  // The engine reads its environment once, in config.ts: areas are handed plain switches (EngineConfig).
  {
    files: ['src/main/engine/**/*.ts'],
    ignores: ['src/main/engine/config.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'The engine reads the environment only in config.ts: add a field to EngineConfig.',
        },
      ],
    },
  },
  // The engine's areas call the platform through its typed API only; platform/ builds it (and alone uses fetch).
  {
    files: ['src/main/engine/**/*.ts'],
    ignores: ['src/main/engine/platform/**'],
    plugins: { project },
    rules: { 'project/platform-calls-in-platform': 'error' },
  },
  // The one exception: ticket images come from the image hosts a message links to, not from the platform, and are
  // fetched with node:http(s) through the SSRF guard (tickets/image-address.ts pins the checked address).
  {
    files: ['src/main/engine/tickets/images.ts'],
    rules: { 'project/platform-calls-in-platform': ['error', { allowImports: ['node:http', 'node:https'] }] },
  },
  boundary(
    ['src/main/host/**'],
    [
      electron,
      rel('electron|cli', 'The host uses the engine only.'),
      rel('renderer|preload|server', 'Not from the host.'),
    ],
  ),
  boundary(
    ['src/main/handles/**'],
    [
      electron,
      sqlite,
      rel('engine|electron|host|cli', 'Handles serve the shells; they know only the contract.'),
      rel('renderer|preload|server', 'Not from the handles.'),
    ],
  ),
  boundary(
    ['src/main/cli/**'],
    [
      electron,
      rel('electron|host', 'The CLI uses the engine only.'),
      rel('renderer|preload|server', 'Not from the CLI.'),
    ],
  ),
  boundary(
    ['src/main/electron/**'],
    [
      rel('host|cli', 'The shell hosts the engine, not other shells.'),
      rel('renderer|preload|server', 'Not from the shell.'),
    ],
  ),
  boundary(
    ['src/preload/**'],
    [nodeBuiltins, sqlite, rel('main|renderer|server', 'The preload sees only the contract.')],
  ),
  boundary(['src/renderer/**'], [...rendererBoundary, transports]),
  // Screens stay apart: what two screens share lives in src/renderer/lib/ or src/renderer/components/.
  {
    files: ['src/renderer/screens/**/*.{ts,tsx}'],
    plugins: { project },
    rules: { 'project/screens-apart': 'error' },
  },
  // The bridge itself is made of the transports.
  boundary(['src/renderer/bridge/**'], rendererBoundary),
  // The renderer asks the bridge what its host can do (bridge.capabilities), never which transport it is.
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    ignores: ['src/renderer/bridge/**'],
    rules: { 'no-restricted-syntax': ['error', ...transportSyntax] },
  },
  // What an event makes stale is declared in the contract (useDeclaredInvalidation applies it); a screen that drops
  // cached answers itself names them by callKey/useCallKey (one tenant's), never by a key written by hand.
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    ignores: ['src/renderer/bridge/**', 'src/renderer/queries/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...transportSyntax,
        {
          selector:
            "CallExpression[callee.property.name=/^(invalidateQueries|refetchQueries|resetQueries|removeQueries)$/] Property[key.name='queryKey'] > ArrayExpression",
          message:
            "A query key written by hand names every tenant's answers: declare what the event invalidates in the contract, or use callKey/useCallKey.",
        },
      ],
    },
  },
  boundary(
    ['src/server/**'],
    [
      electron,
      rel('renderer|preload', 'The sandbox server is its own program.'),
      {
        regex: '(^|/)main/(?!engine/platform/generated/)',
        message: 'The sandbox server may use only the generated API types from the engine.',
      },
    ],
  ),
);
