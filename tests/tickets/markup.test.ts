/**
 * Ticket descriptions are written by mentors' tools and may carry hostile markup. They become a tree of whitelisted
 * nodes; nothing here may ever yield a script, a frame, an event handler or a javascript: link.
 */
import { describe, expect, it } from 'vitest';
import { RichNode, type RichNode as Node } from '../../src/shared/contract';
import { richText, searchableText } from '../../src/main/engine/tickets/markup';
import { HOSTILE_DESCRIPTIONS } from '../../src/server/areas/support/content';

/** Every tag, attribute and text in a tree, flattened, for "never contains" checks. */
function walk(
  nodes: Node[],
  out: { tags: string[]; urls: string[]; text: string[] } = { tags: [], urls: [], text: [] },
) {
  for (const node of nodes) {
    if (node.t === 'text') {
      out.text.push(node.v);
      continue;
    }
    out.tags.push(node.tag);
    if (node.href) out.urls.push(node.href);
    if (node.src) out.urls.push(node.src);
    for (const key of Object.keys(node)) expect(['t', 'tag', 'href', 'src', 'alt', 'children']).toContain(key);
    walk(node.children, out);
  }
  return out;
}

function safe(input: string) {
  const result = richText(input);
  // The contract's own schema accepts only whitelisted tags and http(s)/mailto targets.
  for (const node of result.doc) expect(RichNode.safeParse(node).success).toBe(true);
  const flat = walk(result.doc);
  for (const url of flat.urls) expect(url).toMatch(/^(https?:|mailto:)/i);
  expect(flat.tags).not.toContain('script');
  return { ...result, ...flat, plain: flat.text.join('') };
}

describe('hostile descriptions seeded by the sandbox', () => {
  it.each(HOSTILE_DESCRIPTIONS.map((d) => [d]))('neutralises %s', (description) => {
    const { plain, urls, removed } = safe(description);
    expect(plain).not.toMatch(/alert\(|document\.cookie|evil\.example/);
    expect(urls.join(' ')).not.toMatch(/javascript|evil/i);
    expect(removed.length).toBeGreaterThan(0);
  });

  it('drops script with its body but keeps the surrounding words', () => {
    const { plain, removed } = safe(HOSTILE_DESCRIPTIONS[0]!);
    expect(plain).toBe('Learner pasted this:Please advise.');
    expect(removed).toContain('script');
  });

  it('drops iframes and their target', () => {
    const { tags, removed } = safe(HOSTILE_DESCRIPTIONS[2]!);
    expect(tags).not.toContain('iframe');
    expect(removed).toContain('iframe');
  });

  it('keeps the words of a javascript: link but not the link (HTML and Markdown)', () => {
    const md = safe(HOSTILE_DESCRIPTIONS[3]!);
    expect(md.tags).not.toContain('a');
    expect(md.plain).toContain('reset link');
    const html = safe(HOSTILE_DESCRIPTIONS[4]!);
    expect(html.tags).not.toContain('a');
    expect(html.plain).toBe('Click to view the transcript');
  });

  it('removes event handlers and the elements that carried them', () => {
    expect(safe(HOSTILE_DESCRIPTIONS[1]!).removed).toContain('event handlers');
    const svg = safe(HOSTILE_DESCRIPTIONS[5]!);
    expect(svg.tags).not.toContain('svg');
    expect(svg.plain).toContain('Learner');
    expect(svg.tags).toContain('strong');
  });

  it('drops form fields (a phishing form keeps no input or placeholder)', () => {
    const form = safe(HOSTILE_DESCRIPTIONS[6]!);
    expect(form.plain).not.toContain('password');
    expect(form.removed).toContain('form fields');
  });
});

describe('other XSS vectors', () => {
  const vectors = [
    '<a href="java&#x09;script:alert(1)">a</a>',
    '<a href="  JaVaScRiPt:alert(1)">b</a>',
    '<a href="&#106;avascript:alert(1)">c</a>',
    '<a href="vbscript:msgbox(1)">d</a>',
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">e</a>',
    '<IMG SRC="javascript:alert(1)">',
    '<img src=x onerror=alert(1)//>',
    '<body onload=alert(1)>f</body>',
    '<div style="background:url(javascript:alert(1))">g</div>',
    '<object data="javascript:alert(1)"></object>',
    '<embed src="javascript:alert(1)">',
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    '<<script>script>alert(1)<</script>/script>',
    '<scr<script>ipt>alert(1)</script>',
    '<!--<script>alert(1)</script>--><p>h</p>',
    '<a href="https://ok.example/" onclick="alert(1)" target="_top">i</a>',
    '[j](javascript:alert(1))',
    '[k](  javascript:alert(1) )',
    '![l](javascript:alert(1))',
    '<javascript:alert(1)>',
    '<details open ontoggle=alert(1)>m</details>',
    '<p>n<script>alert(1)',
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
    '<template><script>alert(1)</script></template>o',
    '<a href="https://ok.example/">p<iframe src="javascript:alert(1)"></iframe></a>',
    '<base href="javascript:/">',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    '<link rel=stylesheet href="https://evil.example/x.css">',
  ];

  it.each(vectors.map((v) => [v]))('%s', (vector) => {
    const { urls, tags, plain } = safe(vector);
    expect(urls.join(' ')).not.toMatch(/javascript|vbscript|data:|evil/i);
    for (const tag of tags) expect(['p', 'div', 'span', 'a', 'em', 'strong', 'table', 'br']).toContain(tag);
    // Text is text: it is drawn escaped, but no executable fragment should survive as a tag either.
    expect(plain).not.toMatch(/<img|<script|onerror=/i);
  });

  it('keeps a safe link with its query and drops its handler', () => {
    const { urls, removed } = safe('<a href="https://ok.example/?a=1&amp;b=2" onclick="x()">ok</a>');
    expect(urls).toEqual(['https://ok.example/?a=1&b=2']);
    expect(removed).toContain('event handlers');
  });

  it('counts remote images instead of loading them', () => {
    const markdown = safe('See ![screenshot](https://img.example/a.png) and ![again](https://img.example/c.png)');
    expect(markdown.remoteImages).toBe(2);
    expect(markdown.urls).toEqual(['https://img.example/a.png', 'https://img.example/c.png']);
    const html = safe('<p>See <img src="https://img.example/b.png" alt="b"></p>');
    expect(html.remoteImages).toBe(1);
    expect(html.urls).toEqual(['https://img.example/b.png']);
  });

  it('bounds nesting and size', () => {
    const deep = safe('<div>'.repeat(5000) + 'x' + '</div>'.repeat(5000));
    expect(deep.plain).toBe('x');
    expect(deep.tags.length).toBeLessThanOrEqual(30);
    const nestedQuotes = safe('>'.repeat(2000) + ' y');
    expect(nestedQuotes.plain).toContain('y');
    const huge = richText('a'.repeat(500_000));
    expect(JSON.stringify(huge.doc).length).toBeLessThan(110_000);
  });
});

describe('ordinary descriptions', () => {
  it('reads the Markdown the human-support tool writes', () => {
    const { doc } = safe(
      '**Escalated by Ada**\n\n- Topic: *the final exam*\n- Learner: Bo\n\n> Why is my grade wrong?\n\n## Steps\n\n1. one\n2. two\n\n```\nsession flagged: needs_human\n```\n\nSee https://help.example/faq.',
    );
    const tags = walk(doc).tags;
    for (const tag of ['strong', 'ul', 'li', 'em', 'blockquote', 'h2', 'ol', 'pre', 'code', 'a'])
      expect(tags).toContain(tag);
    expect(walk(doc).urls).toEqual(['https://help.example/faq']);
  });

  it('reads HTML lists, quotes and links', () => {
    const { tags, urls } = safe(
      '<p>The learner asked during a <strong>Tutor</strong> session.</p>\n<ul>\n  <li>Topic: exam</li>\n</ul>\n<blockquote>Help</blockquote><a href="https://help.example/faq">FAQ</a>',
    );
    expect(tags).toEqual(expect.arrayContaining(['p', 'strong', 'ul', 'li', 'blockquote', 'a']));
    expect(urls).toEqual(['https://help.example/faq']);
  });

  it('keeps emoji and right-to-left text exactly', () => {
    const arabic = 'الطالب يطلب المساعدة بخصوص الامتحان. 📚';
    expect(safe(`${arabic}\n\n> سؤال 🙏`).plain).toBe(`${arabic}سؤال 🙏`);
    expect(safe('<p>בעיה בהגשת המטלה 😟</p>').plain).toBe('בעיה בהגשת המטלה 😟');
  });

  it('does not read snake_case or arithmetic as emphasis', () => {
    const { tags, plain } = safe('flag needs_human_review and 2 * 3 * 4');
    expect(tags).not.toContain('em');
    expect(plain).toBe('flag needs_human_review and 2 * 3 * 4');
  });

  it('indexes words, not markup', () => {
    expect(searchableText('<p onclick="x">Refund <b>please</b></p><script>var secret</script>')).not.toMatch(
      /onclick|secret|<b>/,
    );
  });
});
