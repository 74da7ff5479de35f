/**
 * Descriptions built to make a Markdown or HTML reader slow: cmark's pathological tests (test/pathological_tests.py
 * in commonmark/cmark, and the GFM table case of cmark-gfm), the two that froze the old hand-written reader ('*a ' and
 * '_a ' repeated), and HTML parser stress (deep nesting, misnested formatting, unclosed comments). Each is at most
 * `size` characters; `keeps` is text that must still be on screen after reading it. Shared by
 * tests/tickets/markup.test.ts (a generous bound) and bench/tickets-markup.ts.
 */
export interface PathologicalInput {
  name: string;
  input: string;
  keeps?: string;
}

const repeat = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

export function pathologicalInputs(size = 100_000): PathologicalInput[] {
  /** How many times `unit` fits in `size` after `reserve` characters. */
  const fits = (unit: string, reserve = 1) => Math.max(1, Math.floor((size - reserve) / unit.length));
  return [
    { name: "'*a ' repeated", input: repeat('*a ', size) },
    { name: "'_a ' repeated", input: repeat('_a ', size) },
    {
      name: 'nested strong emph',
      input: `${'*a **a '.repeat(fits('*a **a  a** a*'))}b${' a** a*'.repeat(fits('*a **a  a** a*'))}`,
      keeps: 'b',
    },
    { name: 'many emph closers with no openers', input: repeat('a_ ', size) },
    { name: 'many emph openers with no closers', input: repeat('_a ', size) },
    { name: 'many link closers with no openers', input: repeat('a]', size) },
    { name: 'many link openers with no closers', input: repeat('[a', size) },
    { name: 'mismatched openers and closers', input: repeat('*a_ ', size) },
    { name: 'openers and closers multiple of 3', input: `a**b${repeat('c* ', size - 4)}` },
    { name: 'link openers and emph closers', input: repeat('[ a_', size) },
    { name: 'pattern [ (]( repeated', input: repeat('[ (](', size) },
    { name: 'pattern ![[]() repeated', input: repeat('![[]()', size) },
    { name: 'nested brackets', input: `${'['.repeat(fits('[]'))}a${']'.repeat(fits('[]'))}`, keeps: 'a' },
    { name: 'nested block quotes', input: `${'> '.repeat(fits('> '))}a`, keeps: 'a' },
    {
      name: 'deeply nested lists',
      input: Array.from({ length: Math.floor(Math.sqrt(size)) - 1 }, (_, i) => `${'  '.repeat(i)}* a\n`).join(''),
      keeps: 'a',
    },
    { name: 'U+0000 in input', input: repeat('abc\u0000de\u0000', size), keeps: 'abc\ufffdde' },
    {
      name: 'backticks',
      input: Array.from({ length: Math.floor(Math.sqrt(2 * size)) }, (_, i) => `e${'`'.repeat(i + 1)}`)
        .join('')
        .slice(0, size),
    },
    { name: 'unclosed links A', input: repeat('[a](<b', size) },
    { name: 'unclosed links B', input: repeat('[a](b', size) },
    { name: 'unclosed <!--', input: `</${repeat('<!--', size - 2)}` },
    {
      name: 'empty lines in deeply nested lists',
      input: `${'- '.repeat(fits('- \n'))}x${'\n'.repeat(fits('- \n'))}`,
      keeps: 'x',
    },
    {
      name: 'empty lines in deeply nested lists in blockquote',
      input: `> ${'- '.repeat(fits('- >\n', 4))}x\n${'>\n'.repeat(fits('- >\n', 4))}`,
      keeps: 'x',
    },
    { name: 'emph in deep blockquote', input: `${'>'.repeat(size - 3)}*x*`, keeps: 'x' },
    { name: 'reference definitions', input: repeat('[a]: b\n', size) },
    { name: 'GFM table with many rows', input: `| a | b |\n|---|---|\n${repeat('| c |\n', size - 20)}`, keeps: 'c' },
    { name: 'bare links', input: repeat('http://a.b ', size), keeps: 'http://a.b' },
    { name: 'nested HTML divs', input: `${'<div>'.repeat(fits('<div>'))}z`, keeps: 'z' },
    { name: 'misnested HTML formatting', input: repeat('<b><i>x</b>', size), keeps: 'x' },
    { name: 'HTML anchors in blocks', input: `${'<a><div>'.repeat(fits('<a><div>'))}z`, keeps: 'z' },
    { name: 'unclosed HTML attributes', input: `<p>${repeat('<a title="', size - 3)}` },
    { name: 'entities without semicolons', input: repeat('&amp&constructor&#1', size), keeps: '&constructor' },
  ];
}
