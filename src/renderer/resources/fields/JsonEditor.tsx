/**
 * A JSON field's editor: CodeMirror 6 with JSON syntax, a linter for JSON that does not parse, and one for what the
 * spec's schema of the field refuses (the same zod rule the form and the engine check), each message at its place.
 * CodeMirror injects its styles as <style> elements and runs no eval, so it works under the app's CSP.
 */
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { bracketMatching, syntaxTree } from '@codemirror/language';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, placeholder as placeholderText } from '@codemirror/view';
import type { SyntaxNode } from '@lezer/common';
import { Input } from '@mantine/core';
import { useEffect, useRef } from 'react';
import type { z } from 'zod';

interface JsonEditorProps {
  id: string;
  label: string;
  description?: string | undefined;
  placeholder?: string | undefined;
  error?: string | undefined;
  value: string;
  onChange(text: string): void;
  onBlur?(): void;
  /** The field's rule from the spec: what it refuses is underlined where it is. */
  rule: z.ZodType | null;
  autoFocus?: boolean;
}

/** The syntax node a zod issue's path names (an object's property value, an array's item), or null. */
function nodeAt(root: SyntaxNode, path: readonly PropertyKey[], text: (node: SyntaxNode) => string): SyntaxNode | null {
  let node: SyntaxNode | null = root.firstChild;
  for (const step of path) {
    if (!node) return null;
    if (node.name === 'Object') {
      let found: SyntaxNode | null = null;
      for (let child = node.firstChild; child; child = child.nextSibling) {
        if (child.name !== 'Property') continue;
        const name = child.getChild('PropertyName');
        if (name && JSON.parse(text(name)) === String(step)) found = child.lastChild;
      }
      node = found;
    } else if (node.name === 'Array') {
      const items: SyntaxNode[] = [];
      for (let child = node.firstChild; child; child = child.nextSibling) {
        if (!['[', ']', ','].includes(child.name) && !child.type.isError) items.push(child);
      }
      node = items[Number(step)] ?? null;
    } else return null;
  }
  return node;
}

function schemaLinter(rule: z.ZodType) {
  return (view: EditorView): Diagnostic[] => {
    const source = view.state.doc.toString();
    if (!source.trim()) return [];
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch {
      return []; // jsonParseLinter says where.
    }
    const result = rule.safeParse(value);
    if (result.success) return [];
    const tree = syntaxTree(view.state);
    const text = (node: SyntaxNode) => view.state.sliceDoc(node.from, node.to);
    return result.error.issues.map((issue) => {
      const node = nodeAt(tree.topNode, issue.path, text) ?? tree.topNode.firstChild ?? tree.topNode;
      const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
      return { from: node.from, to: node.to, severity: 'error', message: `${where}${issue.message}` };
    });
  };
}

/** An empty field is an optional value left out, not JSON that fails to parse. */
function unlessEmpty(lint: (view: EditorView) => Diagnostic[]) {
  return (view: EditorView): Diagnostic[] => (view.state.doc.toString().trim() ? lint(view) : []);
}

const theme = EditorView.theme({
  '&': {
    fontSize: 'var(--mantine-font-size-sm)',
    border: '1px solid var(--input-bd, var(--mantine-color-default-border))',
    borderRadius: 'var(--mantine-radius-sm)',
    backgroundColor: 'var(--mantine-color-body)',
    color: 'var(--mantine-color-text)',
  },
  '&.cm-focused': { outline: '2px solid var(--mantine-primary-color-filled)', outlineOffset: '-1px' },
  '.cm-scroller': { fontFamily: 'var(--mantine-font-family-monospace)', minHeight: '5.5em', maxHeight: '16em' },
  '.cm-gutters': {
    backgroundColor: 'var(--mantine-color-default-hover)',
    color: 'var(--mantine-color-dimmed)',
    border: 'none',
  },
  '.cm-content': { caretColor: 'var(--mantine-color-text)' },
  '.cm-placeholder': { color: 'var(--mantine-color-placeholder)' },
  '.cm-tooltip': {
    backgroundColor: 'var(--mantine-color-body)',
    color: 'var(--mantine-color-text)',
    border: '1px solid var(--mantine-color-default-border)',
  },
});

export function JsonEditor(props: JsonEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });

  useEffect(() => {
    const { value, rule, placeholder, label, id, autoFocus } = latest.current;
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          history(),
          bracketMatching(),
          // No Tab-to-indent: Tab moves to the next field, so the form works from the keyboard alone.
          keymap.of([...defaultKeymap, ...historyKeymap]),
          json(),
          linter(unlessEmpty(jsonParseLinter()), { delay: 300 }),
          ...(rule ? [linter(schemaLinter(rule), { delay: 300 })] : []),
          lintGutter(),
          theme,
          EditorView.lineWrapping,
          // A dialog's focus trap puts the keyboard here when it is the first field.
          EditorView.contentAttributes.of({
            'aria-label': label,
            id,
            'aria-multiline': 'true',
            ...(autoFocus ? { 'data-autofocus': 'true' } : {}),
          }),
          ...(placeholder ? [placeholderText(placeholder)] : []),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
            if (update.focusChanged && !update.view.hasFocus) latest.current.onBlur?.();
          }),
        ],
      }),
    });
    view.current = editor;
    if (autoFocus) editor.focus();
    return () => editor.destroy();
  }, []);

  // A value set from outside (a reset) replaces the text; typing here does not come back as a change.
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== props.value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: props.value } });
    }
  }, [props.value]);

  return (
    <Input.Wrapper label={props.label} description={props.description} error={props.error} id={props.id}>
      <div ref={host} data-testid={`json-${props.id}`} />
    </Input.Wrapper>
  );
}
