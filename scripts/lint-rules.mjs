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

const HTTP_CLIENTS = new Set(['openapi-fetch', 'undici']);

/**
 * Platform calls go through the tenant's typed API (`client.api.GET('/api/…', { params })`, each operation declared
 * with its retry rule in platform/operations.ts). Requests by path (`client.request(path)`) and `fetch` itself belong
 * to platform/, which builds that API.
 */
const platformCallsInPlatform = {
  meta: {
    type: 'problem',
    docs: { description: 'Only platform/ sends requests by path or calls fetch.' },
    schema: [],
    messages: {
      request:
        'Call the platform through its typed API (client.api.GET/POST/… with the spec path, declared in ' +
        'platform/operations.ts); requests by path belong to platform/.',
      fetch: 'fetch belongs to platform/: call the platform through the typed API (client.api).',
      import: '{{name}} belongs to platform/: call the platform through the typed API (client.api).',
    },
  },
  create(context) {
    return {
      ImportDeclaration(node) {
        const name = node.source.value;
        if (HTTP_CLIENTS.has(name)) context.report({ node, messageId: 'import', data: { name } });
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

export default {
  meta: { name: 'mentor-admin' },
  rules: { 'platform-calls-in-platform': platformCallsInPlatform, 'screens-apart': screensApart },
};
