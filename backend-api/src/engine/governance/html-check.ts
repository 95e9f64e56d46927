import { parseFragment, type DefaultTreeAdapterTypes, type Token } from 'parse5';
import { absoluteUrl, type OriginSet } from './origins.js';
import type { WithheldReason } from './withheld.js';

type Node = DefaultTreeAdapterTypes.ChildNode | DefaultTreeAdapterTypes.DocumentFragment;
type Element = DefaultTreeAdapterTypes.Element;

/** Where the images and links of an HTML value may point. */
export interface HtmlOrigins {
  images: OriginSet;
  pages: OriginSet;
}

/** Elements that pass: text structure, tables, links and images. Anything else withholds the value. */
const ALLOWED_ELEMENTS = new Set(
  (
    'a abbr address article aside b bdi bdo blockquote br caption cite code col colgroup dd del details dfn div dl ' +
    'dt em figcaption figure footer h1 h2 h3 h4 h5 h6 header hr i img ins kbd li main mark nav ol p pre q rp rt ruby ' +
    's samp section small span strong sub summary sup table tbody td tfoot th thead time tr u ul var wbr'
  ).split(' '),
);

/** Refused elements that have a reason of their own (the rest are `html_element_not_allowed`). */
const ELEMENT_REASONS: Record<string, WithheldReason> = {
  script: 'html_script',
  noscript: 'html_script',
  style: 'html_inline_style',
  iframe: 'html_frame',
  frame: 'html_frame',
  frameset: 'html_frame',
  object: 'html_frame',
  embed: 'html_frame',
  applet: 'html_frame',
  portal: 'html_frame',
  fencedframe: 'html_frame',
};
for (const name of 'form input button select textarea option optgroup label fieldset legend datalist output'.split(' '))
  ELEMENT_REASONS[name] = 'html_form';

/** Attributes every allowed element may carry. `id`, `name` and `class` are left out: they reach into the host page. */
const GLOBAL_ATTRIBUTES = new Set(['title', 'lang', 'dir']);
/** Attributes of particular elements; `href` and `src` are checked as URLs. */
const ELEMENT_ATTRIBUTES: Record<string, ReadonlySet<string>> = {
  a: new Set(['href', 'rel', 'hreflang']),
  img: new Set(['src', 'alt', 'width', 'height']),
  td: new Set(['colspan', 'rowspan', 'headers']),
  th: new Set(['colspan', 'rowspan', 'headers', 'scope', 'abbr']),
  col: new Set(['span']),
  colgroup: new Set(['span']),
  ol: new Set(['start', 'reversed', 'type']),
  li: new Set(['value']),
  time: new Set(['datetime']),
  details: new Set(['open']),
};

/** Elements with no end tag. */
const VOID_ELEMENTS = new Set('area base br col embed hr img input keygen link meta param source track wbr'.split(' '));
/** Schemes that run or carry content instead of pointing at a page or image. */
const ACTIVE_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'blob:', 'file:', 'filesystem:']);

/**
 * Checks an HTML value that is to be passed on unmodified: null when it may leave as written, else the reason the
 * whole value is withheld. It must parse cleanly as a self-contained fragment (no parse error, every element
 * opened and closed by its own tags, nothing the parser dropped), hold only allowed elements and attributes, and
 * every `img src` and `a href` must be an absolute https URL on a declared origin. Nothing is fetched.
 *
 * @example
 * checkHtml('<p>See <a href="https://www.agency.example/x">the hotel</a></p>', origins); // null
 * checkHtml('<p onclick="steal()">x</p>', origins); // 'html_event_handler'
 */
export function checkHtml(html: string, origins: HtmlOrigins): WithheldReason | null {
  let parseErrors = 0;
  const fragment = parseFragment(html, {
    sourceCodeLocationInfo: true,
    onParseError: () => {
      parseErrors++;
    },
  });
  if (parseErrors > 0 || !wellFormed(fragment, html.length)) return 'html_malformed';
  return firstProblem(fragment, origins);
}

function childrenOf(node: Node): readonly DefaultTreeAdapterTypes.ChildNode[] {
  if ('content' in node && node.content) return node.content.childNodes;
  return 'childNodes' in node ? node.childNodes : [];
}

function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

/**
 * Every element was opened and closed by its own tags (a fragment that leaves one open swallows whatever follows
 * it on the page that shows it), and every character of the source belongs to a node (the parser dropped nothing:
 * stray end tags, a doctype, `<html>` or `<body>` tags).
 */
function wellFormed(fragment: DefaultTreeAdapterTypes.DocumentFragment, length: number): boolean {
  const spans: Token.Location[] = [];
  let balanced = true;
  const visit = (node: Node): void => {
    for (const child of childrenOf(node)) {
      const location = child.sourceCodeLocation;
      if (isElement(child)) {
        const tags = location as Token.ElementLocation | undefined | null;
        // The parser implies a tbody inside a table; it opens and closes with the table, so it is harmless.
        if (!tags?.startTag) balanced &&= child.tagName === 'tbody';
        else {
          spans.push(tags.startTag);
          if (tags.endTag) spans.push(tags.endTag);
          else if (!VOID_ELEMENTS.has(child.tagName)) balanced = false;
        }
      } else if (location) spans.push(location);
      visit(child);
    }
  };
  visit(fragment);
  if (!balanced) return false;
  spans.sort((a, b) => a.startOffset - b.startOffset);
  let covered = 0;
  for (const span of spans) {
    if (span.startOffset > covered) return false;
    covered = Math.max(covered, span.endOffset);
  }
  return covered >= length;
}

/** The first element or attribute, in document order, that withholds the value. */
function firstProblem(node: Node, origins: HtmlOrigins): WithheldReason | null {
  for (const child of childrenOf(node)) {
    if (!isElement(child)) continue;
    const problem = elementProblem(child, origins) ?? firstProblem(child, origins);
    if (problem) return problem;
  }
  return null;
}

function elementProblem(element: Element, origins: HtmlOrigins): WithheldReason | null {
  const name = element.tagName;
  // Foreign content (svg, math) is refused at its root: it carries its own scripting and linking.
  if (element.namespaceURI !== 'http://www.w3.org/1999/xhtml' || !ALLOWED_ELEMENTS.has(name))
    return ELEMENT_REASONS[name] ?? 'html_element_not_allowed';
  for (const { name: attribute, value } of element.attrs) {
    if (attribute.startsWith('on')) return 'html_event_handler';
    if (attribute === 'style') return 'html_inline_style';
    if (!GLOBAL_ATTRIBUTES.has(attribute) && !ELEMENT_ATTRIBUTES[name]?.has(attribute))
      return 'html_attribute_not_allowed';
    if (attribute === 'href' || attribute === 'src') {
      const problem = urlProblem(value, attribute === 'src' ? origins.images : origins.pages);
      if (problem) return problem;
    }
  }
  return null;
}

function urlProblem(value: string, origins: OriginSet): WithheldReason | null {
  const url = absoluteUrl(value);
  if (!url) return 'html_relative_link';
  if (ACTIVE_SCHEMES.has(url.protocol) || url.username || url.password) return 'html_unsafe_url';
  return url.protocol === 'https:' && origins.has(url.origin) ? null : 'origin_not_declared';
}
