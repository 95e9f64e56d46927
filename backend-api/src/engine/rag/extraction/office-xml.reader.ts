import { XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  checkDeadline,
  checkTextLength,
  describeText,
  EXTRACTION_MEDIA_TYPES as M,
  ExtractionError,
  type ExtractedText,
  type ExtractionLimits,
  type ExtractionPartKind,
} from './extraction.types.js';
import { inflateArchive } from './bounded-inflater.js';

/** An ordered XML node as fast-xml-parser gives it with `preserveOrder`: one tag key (or `#text`) and `:@` attributes. */
type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: false,
});

/** Elements after which a line ends (paragraphs, headings, rows, line breaks), by local name. */
const LINE_ENDS = new Set(['p', 'h', 'br', 'row', 'table-row', 'si', 'line-break']);
/** Elements after which a tab separates (cells, tabs). */
const CELL_ENDS = new Set(['c', 'table-cell', 'tab']);

const localName = (tag: string): string => tag.slice(tag.indexOf(':') + 1);

function tagOf(node: XmlNode): string | undefined {
  return Object.keys(node).find((key) => key !== ':@');
}

function childrenOf(node: XmlNode, tag: string): XmlNode[] {
  const value = node[tag];
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

function attribute(node: XmlNode, name: string): string | undefined {
  const attributes = node[':@'] as Record<string, unknown> | undefined;
  const value = attributes?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** Parses one XML part; a part that is not well-formed XML makes the document malformed. */
function parseXml(bytes: Uint8Array, part: string): XmlNode[] {
  const text = new TextDecoder().decode(bytes);
  if (XMLValidator.validate(text) !== true) {
    throw new ExtractionError('malformed_document', `The document part ${part} is not well-formed XML.`);
  }
  return parser.parse(text) as XmlNode[];
}

/** The text of nodes in document order, lines ended after paragraphs and rows, cells separated by tabs. */
function textOf(nodes: readonly XmlNode[], out: string[] = []): string[] {
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === undefined) continue;
    if (tag === '#text') {
      out.push(String(node[tag]));
      continue;
    }
    const name = localName(tag);
    if (CELL_ENDS.has(name)) {
      // A cell's paragraphs stay on its row: one line per row, cells separated by tabs.
      out.push(
        textOf(childrenOf(node, tag))
          .join('')
          .trim()
          .replace(/\s*\n\s*/g, ' '),
        '\t',
      );
      continue;
    }
    textOf(childrenOf(node, tag), out);
    if (LINE_ENDS.has(name)) out.push('\n');
  }
  return out;
}

/** Every element named `local` (any prefix) below `nodes`, in document order. */
function elements(nodes: readonly XmlNode[], local: string, out: XmlNode[] = []): XmlNode[] {
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === undefined || tag === '#text') continue;
    if (localName(tag) === local) out.push(node);
    else elements(childrenOf(node, tag), local, out);
  }
  return out;
}

const tidy = (text: string): string =>
  text
    .replace(/\t+\n/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/** Sorts `prefix<N>.xml` part names by N (slide2 before slide10). */
function numberedParts(names: Iterable<string>, pattern: RegExp): string[] {
  const number = (name: string) => Number(pattern.exec(name)?.[1] ?? 0);
  return [...names].filter((name) => pattern.test(name)).sort((a, b) => number(a) - number(b));
}

interface PartsText {
  parts: string[];
  kind: ExtractionPartKind;
}

function pptxText(files: Map<string, Uint8Array>, deadline: number): PartsText {
  const slides = numberedParts(files.keys(), /^ppt\/slides\/slide(\d+)\.xml$/);
  const parts = slides.map((name) => {
    checkDeadline(deadline, 'the presentation');
    return tidy(textOf(parseXml(files.get(name) ?? new Uint8Array(), name)).join(''));
  });
  return { parts, kind: 'slide' };
}

function xlsxText(files: Map<string, Uint8Array>, deadline: number): PartsText {
  const sharedPart = files.get('xl/sharedStrings.xml');
  const shared = sharedPart
    ? elements(parseXml(sharedPart, 'xl/sharedStrings.xml'), 'si').map((si) => tidy(textOf([si]).join('')))
    : [];
  const sheets = numberedParts(files.keys(), /^xl\/worksheets\/sheet(\d+)\.xml$/);
  const parts = sheets.map((name) => {
    checkDeadline(deadline, 'the workbook');
    const rows = elements(parseXml(files.get(name) ?? new Uint8Array(), name), 'row');
    return rows
      .map((row) =>
        elements([row], 'c')
          .map((cell) => cellText(cell, shared))
          .filter((value) => value !== '')
          .join('\t'),
      )
      .filter((line) => line !== '')
      .join('\n');
  });
  return { parts, kind: 'sheet' };
}

/** A cell's shown value: a shared string by index, an inline string, or the literal value. */
function cellText(cell: XmlNode, shared: readonly string[]): string {
  const type = attribute(cell, 't');
  if (type === 'inlineStr') return tidy(textOf(elements([cell], 'is')).join(''));
  const value = tidy(textOf(elements([cell], 'v')).join(''));
  if (type === 's') return shared[Number(value)] ?? '';
  return value;
}

function openDocumentText(files: Map<string, Uint8Array>, mediaType: string): PartsText {
  const content = files.get('content.xml');
  if (!content) throw new ExtractionError('malformed_document', 'The OpenDocument package has no content.xml.');
  const nodes = parseXml(content, 'content.xml');
  if (mediaType === M.ODS)
    return { parts: elements(nodes, 'table').map((t) => tidy(textOf([t]).join(''))), kind: 'sheet' };
  if (mediaType === M.ODP)
    return { parts: elements(nodes, 'page').map((p) => tidy(textOf([p]).join(''))), kind: 'slide' };
  return { parts: [tidy(textOf(elements(nodes, 'text')).join(''))], kind: 'document' };
}

const PARTS_OF: Readonly<Record<string, (name: string) => boolean>> = {
  [M.PPTX]: (name) => /^ppt\/slides\/slide\d+\.xml$/.test(name),
  [M.XLSX]: (name) => name === 'xl/sharedStrings.xml' || /^xl\/worksheets\/sheet\d+\.xml$/.test(name),
  [M.ODT]: (name) => name === 'content.xml',
  [M.ODS]: (name) => name === 'content.xml',
  [M.ODP]: (name) => name === 'content.xml',
};

/** Whether {@link readOfficeXml} reads this media type. */
export function isOfficeXmlMediaType(mediaType: string): boolean {
  return Object.hasOwn(PARTS_OF, mediaType);
}

/**
 * Reads `.pptx .xlsx .odt .ods .odp` through the bounded inflater and an XML parser. `partCount` counts the
 * document's real parts: slides of a presentation, sheets of a workbook, 1 for a text document.
 */
export function readOfficeXml(
  bytes: Uint8Array,
  mediaType: string,
  limits: ExtractionLimits,
  deadline: number,
): ExtractedText {
  const select = PARTS_OF[mediaType];
  if (!select) throw new ExtractionError('unsupported_media_type', `${mediaType} is not an Office XML type.`);
  const files = inflateArchive(bytes, limits, { select });
  const { parts, kind } =
    mediaType === M.PPTX
      ? pptxText(files, deadline)
      : mediaType === M.XLSX
        ? xlsxText(files, deadline)
        : openDocumentText(files, mediaType);
  if (parts.length === 0) throw new ExtractionError('malformed_document', 'The package holds no document parts.');
  const text = parts.filter((part) => part !== '').join('\n\n');
  checkTextLength(text.length, limits);
  return describeText(text, { mediaType, reader: 'office-xml', partKind: kind, partCount: parts.length });
}
