import { z_html } from '@wildo/shared-lib';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkHtml } from './html-check.js';
import { originSet } from './origins.js';
import { compileProjector, newProjectionReport } from './projection.js';
import type { WithheldReason } from './withheld.js';

const IMAGES = 'https://img.agency.example';
const PAGES = 'https://www.agency.example';
const origins = { images: originSet([IMAGES]), pages: originSet([PAGES]) };

/** Documents that pass unmodified: text structure, tables, links and images on the declared origins. */
const CLEAN = [
  `<p><b>Casa Alfama</b> sits <em>above</em> the river.</p>`,
  `<h2>Rooms</h2><ul><li>Double</li><li>Family &amp; friends</li></ul>`,
  `<p><a href="${PAGES}/hotels/casa-alfama" rel="noopener">Our page</a> <img src="${IMAGES}/a.jpg" alt="Terrace" width="40" height="30"></p>`,
  `<table><tr><th scope="col">Night</th></tr><tr><td colspan="2">118</td></tr></table>`,
  `<p>Line<br>break</p><hr><!-- a note --><blockquote>Quiet.</blockquote>`,
  `<a href="${PAGES}:443/x?y=1#z">the same origin, with its default port</a>`,
  'Plain text, no markup.',
];

/** Each withheld whole, with the reason the corpus expects. */
const CORPUS: [name: string, html: string, reason: WithheldReason][] = [
  ['a script element', '<p>Hi</p><script>alert(1)</script>', 'html_script'],
  ['a noscript element', '<noscript><p>x</p></noscript>', 'html_script'],
  ['an event handler', '<p onclick="steal()">Hi</p>', 'html_event_handler'],
  ['an event handler on an image', `<img src="${IMAGES}/a.jpg" onerror="steal()">`, 'html_event_handler'],
  ['a javascript: link', '<a href="javascript:alert(1)">x</a>', 'html_unsafe_url'],
  ['a javascript: link hidden by a tab and case', '<a href=" JaVa\tScript:alert(1)">x</a>', 'html_unsafe_url'],
  ['a javascript: link hidden by a character reference', '<a href="&#106;avascript:alert(1)">x</a>', 'html_unsafe_url'],
  ['a data: image', '<img src="data:image/svg+xml;base64,PHN2Zz4=">', 'html_unsafe_url'],
  ['a data: link', '<a href="data:text/html,<script>alert(1)</script>">x</a>', 'html_unsafe_url'],
  ['a link with credentials', `<a href="https://user:pw@www.agency.example/x">x</a>`, 'html_unsafe_url'],
  ['a relative link', '<a href="/hotels/casa">x</a>', 'html_relative_link'],
  ['a protocol-relative link', '<a href="//evil.example/x">x</a>', 'html_relative_link'],
  ['a fragment link', '<a href="#top">x</a>', 'html_relative_link'],
  ['a relative image', '<img src="pixel.gif">', 'html_relative_link'],
  ['an inline style', '<p style="position:fixed;top:0">x</p>', 'html_inline_style'],
  ['a style element', '<style>p{color:red}</style><p>x</p>', 'html_inline_style'],
  ['an svg', '<svg><circle r="4"></circle></svg>', 'html_element_not_allowed'],
  ['an svg with a script', '<svg onload="x()"><script>alert(1)</script></svg>', 'html_element_not_allowed'],
  ['a math element', '<math><mi>x</mi></math>', 'html_element_not_allowed'],
  ['an iframe', `<iframe src="${PAGES}/x"></iframe>`, 'html_frame'],
  ['an object', '<object data="x.swf"></object>', 'html_frame'],
  ['an embed', '<embed src="x.swf">', 'html_frame'],
  ['a form', `<form action="${PAGES}/x"><button>Go</button></form>`, 'html_form'],
  ['an input', '<input value="x">', 'html_form'],
  ['a meta refresh', '<meta http-equiv="refresh" content="0;url=https://evil.example">', 'html_element_not_allowed'],
  ['a base element', '<base href="https://evil.example/">', 'html_element_not_allowed'],
  ['a template', '<template><p>x</p></template>', 'html_element_not_allowed'],
  ['an id that could clobber the page', '<p id="config">x</p>', 'html_attribute_not_allowed'],
  ['a srcset', `<img src="${IMAGES}/a.jpg" srcset="https://evil.example/a.jpg 2x">`, 'html_attribute_not_allowed'],
  ['an image on an undeclared host', '<img src="https://cdn.partner-photos.example/a.jpg">', 'origin_not_declared'],
  ['a link on an undeclared host', '<a href="https://book.partner-hotels.example/x">x</a>', 'origin_not_declared'],
  ['an image on the page origin only', `<img src="${PAGES}/a.jpg">`, 'origin_not_declared'],
  ['a plain http link', '<a href="http://www.agency.example/x">x</a>', 'origin_not_declared'],
  ['a look-alike host', `<img src="https://img.agency.example.evil.example/a.jpg">`, 'origin_not_declared'],
  ['an unclosed element', '<p>Hi <b>there</p>', 'html_malformed'],
  ['an element closed by the parser', '<p>one<p>two', 'html_malformed'],
  ['misnested tags', '<b><i>x</b></i>', 'html_malformed'],
  ['a stray end tag', '<p>x</p></div>', 'html_malformed'],
  ['a broken attribute', '<p <b>x</b>', 'html_malformed'],
  ['an unterminated tag', '<a href="x>y</a>', 'html_malformed'],
  ['an unknown character reference', '<p>a &nosuch; b</p>', 'html_malformed'],
  ['a bare less-than', '<p>a < b</p>', 'html_malformed'],
  ['a whole document', '<!DOCTYPE html><html><body><p>x</p></body></html>', 'html_malformed'],
  ['a NUL character', '<p>x\u0000</p>', 'html_malformed'],
];

describe('checkHtml: a clean document passes as written', () => {
  for (const html of CLEAN) it(JSON.stringify(html).slice(0, 70), () => expect(checkHtml(html, origins)).toBeNull());
});

describe('checkHtml: the corpus is withheld whole, each with its reason', () => {
  for (const [name, html, reason] of CORPUS) it(name, () => expect(checkHtml(html, origins)).toBe(reason));
});

describe('an html output field', () => {
  const projector = compileProjector(
    z.object({ description: z_html({ origins: { images: [IMAGES], pages: [PAGES] } }).optional() }),
  );

  it('passes a clean document byte for byte', () => {
    for (const html of CLEAN) {
      const report = newProjectionReport();
      const out = projector.project({ description: html }, report) as { description: string };
      expect(out.description).toBe(html);
      expect(report.withheld).toEqual([]);
    }
  });

  it('withholds every corpus document whole, naming the field and the reason, never the markup', () => {
    for (const [, html, reason] of CORPUS) {
      const report = newProjectionReport();
      expect(projector.project({ description: html }, report)).toEqual({});
      expect(report.withheld).toEqual([{ path: 'description', reason }]);
    }
  });
});
