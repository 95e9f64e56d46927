import { strToU8, zipSync, type Zippable } from 'fflate';

/**
 * Small documents built in memory for extraction tests: hand-written PDFs (with and without a text layer)
 * and Office Open XML / OpenDocument packages zipped with fflate.
 */

/** A PDF whose pages each show one line of text (`pages` = the lines); no lines: one page with a drawing only. */
export function minimalPdf(pages: readonly string[]): Uint8Array {
  const contents =
    pages.length > 0 ? pages.map((line) => `BT /F1 18 Tf 72 720 Td (${escapePdf(line)}) Tj ET`) : ['0 0 m 200 200 l S'];
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

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
