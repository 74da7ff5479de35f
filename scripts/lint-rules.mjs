// The project's own lint rules (eslint.config.js applies them). Each keeps one design rule of ARCHITECTURE.md.
import { dirname, relative, resolve, sep } from 'node:path';

/** Whether `name` at `node` is the global (no import, parameter or variable of that name is in scope). */
function isGlobal(context, node, name) {
  for (let scope = context.sourceCode.getScope(node); scope; scope = scope.upper) {
    const variable = scope.set.get(name);
    if (variable) return variable.defs.length === 0;
  }
  return true;
}

const HTTP_CLIENTS = new Set(['openapi-fetch', 'undici', 'node:http', 'node:https', 'http', 'https']);

/**
 * Platform calls go through the tenant's typed API (`client.api.GET('/api/…', { params })`, each operation declared
 * with its retry rule in platform/operations.ts). Requests by path (`client.request(path)`) and `fetch` itself belong
 * to platform/, which builds that API.
 */
const platformCallsInPlatform = {
  meta: {
    type: 'problem',
    docs: { description: 'Only platform/ sends requests by path or calls fetch.' },
    // allowImports: HTTP clients a named file may import for hosts that are not the platform (eslint.config.js).
    schema: [
      {
        type: 'object',
        properties: { allowImports: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
    ],
    messages: {
      request:
        'Call the platform through its typed API (client.api.GET/POST/… with the spec path, declared in ' +
        'platform/operations.ts); requests by path belong to platform/.',
      fetch: 'fetch belongs to platform/: call the platform through the typed API (client.api).',
      import: '{{name}} belongs to platform/: call the platform through the typed API (client.api).',
    },
  },
  create(context) {
    const allowed = new Set(context.options[0]?.allowImports ?? []);
    return {
      ImportDeclaration(node) {
        const name = node.source.value;
        if (HTTP_CLIENTS.has(name) && !allowed.has(name)) context.report({ node, messageId: 'import', data: { name } });
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier') {
          if (callee.property.name === 'request') context.report({ node, messageId: 'request' });
          const onGlobal =
            callee.object.type === 'Identifier' &&
            ['globalThis', 'global', 'window', 'self'].includes(callee.object.name) &&
            isGlobal(context, node, callee.object.name);
          if (onGlobal && callee.property.name === 'fetch') context.report({ node, messageId: 'fetch' });
        }
        if (callee.type === 'Identifier' && callee.name === 'fetch' && isGlobal(context, node, 'fetch')) {
          context.report({ node, messageId: 'fetch' });
        }
      },
    };
  },
};

const SCREENS = 'src/renderer/screens/';

/** The screen a project-relative path belongs to (`tickets` for src/renderer/screens/tickets/…), or null. */
function screenOf(path) {
  if (!path.startsWith(SCREENS)) return null;
  const rest = path.slice(SCREENS.length);
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : null;
}

/**
 * Screens stay apart: a screen's folder (src/renderer/screens/<name>/) imports nothing from another screen's. What
 * two screens share lives in src/renderer/lib/ (utilities) or src/renderer/components/ (React parts), so a screen can
 * change, move or go without breaking another.
 */
const screensApart = {
  meta: {
    type: 'problem',
    docs: { description: "A screen's folder imports nothing from another screen's." },
    schema: [],
    messages: {
      crossing:
        "The {{from}} screen imports from the {{to}} screen's folder: shared pieces live in src/renderer/lib/ " +
        '(utilities) or src/renderer/components/ (React parts).',
    },
  },
  create(context) {
    const posix = (path) => path.split(sep).join('/');
    const file = posix(relative(context.cwd, context.filename));
    const from = screenOf(file);
    if (!from) return {};
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = posix(relative(context.cwd, resolve(dirname(context.filename), source)));
      const to = screenOf(`${target}/`);
      if (to && to !== from) context.report({ node, messageId: 'crossing', data: { from, to } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

/** Whether `node` is certainly a regular expression: a literal, `new RegExp(…)`/`RegExp(…)`, or a name bound to one. */
function isRegExp(context, node) {
  if (node.type === 'Literal' && node.regex) return true;
  if ((node.type === 'NewExpression' || node.type === 'CallExpression') && node.callee.type === 'Identifier') {
    return node.callee.name === 'RegExp';
  }
  if (node.type !== 'Identifier') return false;
  for (let scope = context.sourceCode.getScope(node); scope; scope = scope.upper) {
    const variable = scope.set.get(node.name);
    if (!variable) continue;
    const def = variable.defs[0];
    return def?.type === 'Variable' && !!def.node.init && isRegExp(context, def.node.init);
  }
  return false;
}

const DATABASE_NAME = /^(db|database|sqlite|connection)$/i;

/** The name a receiver goes by: `db`, `this.db`, `deps.db` → `db`. */
function receiverName(node) {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier') {
    return node.property.name;
  }
  return null;
}

/**
 * SQL runs in store modules only (ARCHITECTURE.md, "SQL lives in store modules"): `.prepare(` and `.exec(` on the
 * database. eslint.config.js names the owners (store/, the job journal, files named store.ts, *-store.ts, cache.ts and
 * *-cache.ts) by leaving them out of the rule. `exec` counts when it is given SQL text or called on the database by
 * name, never on a regular expression; a class's own method called `prepare` (`this.prepare(…)`) is not SQL.
 */
const sqlInStores = {
  meta: {
    type: 'problem',
    docs: { description: 'Only store modules prepare and run SQL.' },
    schema: [],
    messages: {
      sql:
        'SQL belongs in a store module (store.ts, *-store.ts, cache.ts, *-cache.ts, or the job journal): give this ' +
        'statement a method there and call that; areas get their stores from the engine, never the database.',
    },
  },
  create(context) {
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') return;
        const method = callee.property.name;
        if ((method !== 'prepare' && method !== 'exec') || callee.object.type === 'ThisExpression') return;
        if (method === 'exec') {
          if (isRegExp(context, callee.object)) return;
          const [text] = node.arguments;
          const sqlText =
            text?.type === 'TemplateLiteral' || (text?.type === 'Literal' && typeof text.value === 'string');
          if (!sqlText && !DATABASE_NAME.test(receiverName(callee.object) ?? '')) return;
        }
        context.report({ node, messageId: 'sql' });
      },
    };
  },
};

const ENGINE = 'src/main/engine';

/** The engine area (a folder of src/main/engine) whose inner module `source` names from `filename`, if another's. */
function innerModuleOfOtherArea(cwd, filename, source) {
  if (!source.startsWith('.')) return null;
  const target = relative(cwd, resolve(dirname(filename), source))
    .split(sep)
    .join('/');
  if (!target.startsWith(`${ENGINE}/`)) return null;
  const [area, ...inside] = target.slice(ENGINE.length + 1).split('/');
  // The area itself (its index.ts), or a module at the engine's root (errors, log, csv, …).
  if (!inside.length || inside.join('/').replace(/\.[cm]?[jt]s$/, '') === 'index') return null;
  const from = relative(cwd, filename).split(sep).join('/');
  return from.startsWith(`${ENGINE}/${area}/`) ? null : area;
}

/**
 * Each engine area exposes its index.ts and nothing deeper (ARCHITECTURE.md, "one owner per room"): shells and other
 * areas import `…/engine/<area>`, never a module inside it. What others need is re-exported by the index.
 */
const areaIndexOnly = {
  meta: {
    type: 'problem',
    docs: { description: 'Another engine area is imported through its index.ts only.' },
    schema: [],
    messages: {
      inner:
        "Import '{{area}}' through its index ('…/engine/{{area}}'), not '{{source}}': an area exposes its index.ts " +
        'to shells and other areas (re-export there what they need).',
    },
  },
  create(context) {
    const check = (node) => {
      const source = node.source;
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      const area = innerModuleOfOtherArea(context.cwd, context.filename, source.value);
      if (area) context.report({ node: source, messageId: 'inner', data: { area, source: source.value } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default {
  meta: { name: 'mentor-admin' },
  rules: {
    'platform-calls-in-platform': platformCallsInPlatform,
    'screens-apart': screensApart,
    'sql-in-stores': sqlInStores,
    'area-index-only': areaIndexOnly,
  },
};
