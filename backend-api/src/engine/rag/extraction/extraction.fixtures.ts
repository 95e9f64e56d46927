import { strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { expect } from 'vitest';
import { ExtractionError } from './extraction.types.js';

/**
 * Small documents built in memory for extraction tests: hand-written PDFs (with and without a text layer)
 * and Office Open XML / OpenDocument packages zipped with fflate.
 */

/** A PDF whose pages each show one line of text (`pages` = the lines); no lines: one page with a drawing only. */
export function minimalPdf(pages: readonly string[]): Uint8Array {
  return pdfOfContents(
    pages.length > 0 ? pages.map((line) => `BT /F1 18 Tf 72 720 Td (${escapePdf(line)}) Tj ET`) : ['0 0 m 200 200 l S'],
  );
}

/** A one-page PDF whose page shows `words` words, each drawn by its own operators: slow to read, page by page. */
export function denseOnePagePdf(words: number): Uint8Array {
  const shown = Array.from({ length: words }, (_, i) => `(w${i}) Tj 0.01 0 Td`).join('\n');
  return pdfOfContents([`BT /F1 1 Tf 1 1 Td\n${shown}\nET`]);
}

/** A PDF with one page per content stream, in the Helvetica font. */
function pdfOfContents(contents: readonly string[]): Uint8Array {
  const objects: string[] = [];
  const pageIds = contents.map((_, index) => 3 + index * 2);
  const fontId = 3 + contents.length * 2;
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${contents.length} >>`;
  contents.forEach((content, index) => {
    const pageId = pageIds[index] ?? 0;
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${pageId + 1} 0 R ` +
      `/Resources << /Font << /F1 ${fontId} 0 R >> >> >>`;
    objects[pageId + 1] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  });
  objects[fontId] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = body.length;
    body += `${id} 0 obj\n${objects[id] ?? ''}\nendobj\n`;
  }
  const xrefAt = body.length;
  body += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) body += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return strToU8(body);
}

function escapePdf(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`);
}

const CONTENT_TYPES = (overrides: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
  `<Default Extension="xml" ContentType="application/xml"/>${overrides}</Types>`;

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** A .docx with one paragraph per entry. */
export function minimalDocx(paragraphs: readonly string[]): Uint8Array {
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${xml(p)}</w:t></w:r></w:p>`).join('');
  return zipSync({
    '[Content_Types].xml': strToU8(
      CONTENT_TYPES(
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>',
      ),
    ),
    '_rels/.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    'word/document.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`,
    ),
  });
}

/** A .pptx with one slide per entry (each slide one text box). */
export function minimalPptx(slides: readonly string[]): Uint8Array {
  const files: Zippable = { '[Content_Types].xml': strToU8(CONTENT_TYPES('')) };
  slides.forEach((text, index) => {
    files[`ppt/slides/slide${index + 1}.xml`] = strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" ` +
        `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody>` +
        `<a:p><a:r><a:t>${xml(text)}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`,
    );
  });
  files['ppt/presentation.xml'] = strToU8('<?xml version="1.0" encoding="UTF-8"?><p:presentation xmlns:p="x"/>');
  return zipSync(files);
}

/** A .xlsx with one sheet per entry; each sheet's cells are shared strings. */
export function minimalXlsx(sheets: readonly (readonly string[])[]): Uint8Array {
  const strings = sheets.flat();
  const files: Zippable = {
    '[Content_Types].xml': strToU8(CONTENT_TYPES('')),
    'xl/sharedStrings.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
        strings.map((s) => `<si><t>${xml(s)}</t></si>`).join('') +
        '</sst>',
    ),
  };
  let index = 0;
  sheets.forEach((cells, sheet) => {
    const row = cells.map((_, column) => `<c r="${String.fromCharCode(65 + column)}1" t="s"><v>${index++}</v></c>`);
    files[`xl/worksheets/sheet${sheet + 1}.xml`] = strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
        `<sheetData><row r="1">${row.join('')}</row></sheetData></worksheet>`,
    );
  });
  return zipSync(files);
}

/** An OpenDocument text (.odt) with one paragraph per entry. */
export function minimalOdt(paragraphs: readonly string[]): Uint8Array {
  return zipSync({
    mimetype: strToU8('application/vnd.oasis.opendocument.text'),
    'content.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ` +
        `xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text>` +
        paragraphs.map((p) => `<text:p>${xml(p)}</text:p>`).join('') +
        '</office:text></office:body></office:document-content>',
    ),
  });
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"';

/** An OpenDocument spreadsheet (.ods): one table per entry, one row of cells each. */
export function minimalOds(sheets: readonly (readonly string[])[]): Uint8Array {
  const tables = sheets.map(
    (cells, index) =>
      `<table:table table:name="Sheet${index + 1}"><table:table-row>` +
      cells.map((cell) => `<table:table-cell><text:p>${xml(cell)}</text:p></table:table-cell>`).join('') +
      '</table:table-row></table:table>',
  );
  return zipSync({
    mimetype: strToU8('application/vnd.oasis.opendocument.spreadsheet'),
    'content.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF_NS}><office:body><office:spreadsheet>` +
        `${tables.join('')}</office:spreadsheet></office:body></office:document-content>`,
    ),
  });
}

/** An OpenDocument presentation (.odp): one page per entry. */
export function minimalOdp(slides: readonly string[]): Uint8Array {
  const pages = slides.map(
    (text, index) =>
      `<draw:page draw:name="page${index + 1}"><draw:frame><draw:text-box><text:p>${xml(text)}</text:p></draw:text-box></draw:frame></draw:page>`,
  );
  return zipSync({
    mimetype: strToU8('application/vnd.oasis.opendocument.presentation'),
    'content.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF_NS}><office:body><office:presentation>` +
        `${pages.join('')}</office:presentation></office:body></office:document-content>`,
    ),
  });
}

/** A zip whose one entry inflates to `bytes` zeros (a few kilobytes on disk). */
export function zipBomb(entry: string, bytes: number): Uint8Array {
  return zipSync({ [entry]: [new Uint8Array(bytes), { level: 9 }] });
}

/**
 * Rewrites the inflated sizes a package declares to what `declare(name, actual)` says, in its local headers and its
 * central directory alike (or, `centralOnly`, in the directory alone): a package that lies about its size the way a
 * crafted bomb does.
 */
export function withDeclaredSizes(
  zip: Uint8Array,
  declare: (name: string, actual: number) => number,
  centralOnly = false,
): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const nameAt = (offset: number, length: number) => new TextDecoder().decode(out.subarray(offset, offset + length));
  const end = out.byteLength - 22; // the end-of-central-directory record (no comment)
  const count = view.getUint16(end + 10, true);
  let central = view.getUint32(end + 16, true);
  for (let i = 0; i < count; i++) {
    const nameLength = view.getUint16(central + 28, true);
    const name = nameAt(central + 46, nameLength);
    const declared = declare(name, view.getUint32(central + 24, true));
    view.setUint32(central + 24, declared, true);
    const local = view.getUint32(central + 42, true);
    if (!centralOnly) view.setUint32(local + 22, declared, true);
    central += 46 + nameLength + view.getUint16(central + 30, true) + view.getUint16(central + 32, true);
  }
  return out;
}

/**
 * A .docx whose `word/document.xml` declares `declaredBytes` but inflates to `inflatedBytes` (a paragraph, then
 * spaces): the bomb that passes a check of declared sizes.
 */
export function lyingDocxBomb(declaredBytes: number, inflatedBytes: number): Uint8Array {
  const honest = minimalDocx(['A short memo.']);
  const entries = unzipSync(honest);
  const head = strToU8(`<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body>`);
  const document = new Uint8Array(inflatedBytes).fill(0x20);
  document.set(head);
  entries['word/document.xml'] = document;
  const zip = zipSync(Object.fromEntries(Object.entries(entries).map(([name, data]) => [name, [data, { level: 9 }]])));
  return withDeclaredSizes(zip, (name, actual) => (name === 'word/document.xml' ? declaredBytes : actual));
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The refusal an extraction ended with (the test fails when it succeeded or failed otherwise). */
export async function refusalOf(promise: Promise<unknown>): Promise<ExtractionError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ExtractionError);
  return error as ExtractionError;
}
