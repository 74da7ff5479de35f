/**
 * One owner per table: SQL text that names a table may appear only in the module that owns it; everyone else goes
 * through that owner. Looks at string and template literals (SQL is written as one literal in this code base) for a
 * table named after FROM, JOIN, INTO, UPDATE, TABLE or REFERENCES.
 *
 * Options: `{ owners: { <table>: <owning file, relative to the project> } }`.
 */
import { relative, sep } from 'node:path';

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export default {
  meta: {
    type: 'problem',
    docs: { description: 'SQL naming a table only in the module that owns the table' },
    schema: [
      {
        type: 'object',
        properties: { owners: { type: 'object', additionalProperties: { type: 'string' } } },
        required: ['owners'],
        additionalProperties: false,
      },
    ],
    messages: {
      notOwner: 'SQL naming the `{{table}}` table belongs in {{owner}}: use what it offers (or add it there).',
    },
  },
  create(context) {
    const owners = context.options[0].owners;
    const file = relative(context.cwd, context.filename).split(sep).join('/');
    const tables = Object.keys(owners).filter((table) => owners[table] !== file);
    if (!tables.length) return {};
    const names = new RegExp(
      `\\b(?:from|join|into|update|table|references)\\s+["'\`[]?(${tables.map(escape).join('|')})\\b`,
      'i',
    );
    const check = (node, text) => {
      const found = names.exec(text);
      if (found) {
        const table = tables.find((name) => name.toLowerCase() === found[1].toLowerCase());
        context.report({ node, messageId: 'notOwner', data: { table, owner: owners[table] } });
      }
    };
    return {
      Literal(node) {
        if (typeof node.value === 'string') check(node, node.value);
      },
      TemplateLiteral(node) {
        // What is interpolated counts as a word: `FROM ${x} jobs` names no table, `FROM jobs ${where}` does.
        check(node, node.quasis.map((quasi) => quasi.value.cooked ?? quasi.value.raw).join(' ? '));
      },
    };
  },
};
