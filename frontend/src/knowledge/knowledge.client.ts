import * as z from 'zod/mini';
import { requestJson, toApiError } from '../api/api.client';
import { UPLOAD_GRANT_HEADER } from '../uploads/upload-grant.client';

/** The file kinds a knowledge document accepts (as the resource declares its `document` field). */
export const DOCUMENT_FILE_TYPES = [
  'application/pdf',
  'text/plain',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
] as const;

const SourceSchema = z.object({
  field: z.string(),
  kind: z.string(),
  status: z.enum(['pending', 'indexed', 'failed']),
  failureReason: z.nullable(z.string()),
  chunkCount: z.number(),
});
/** How far indexing of one field of a document got. */
export type IngestionSource = z.infer<typeof SourceSchema>;

const PassageSchema = z.object({ field: z.string(), text: z.string() });
const AnswerSchema = z.object({
  data: z.object({
    sources: z.array(
      z.object({ knowledgeDocumentId: z.string(), header: z.string(), passages: z.array(PassageSchema) }),
    ),
  }),
});
/** The documents and passages that answer a question. */
export type KnowledgeAnswer = z.infer<typeof AnswerSchema>['data'];

/** `POST <document>/ingestion`: the indexing state of each of the document's indexed fields. */
export async function readIngestion(documentUrl: string, accessToken: string, signal?: AbortSignal) {
  const body = await requestJson(`${documentUrl}/ingestion`, {
    method: 'POST',
    body: {},
    accessToken,
    signal,
    schema: z.object({ data: z.object({ sources: z.array(SourceSchema) }) }),
  });
  return body.data.sources;
}

/** `POST <documents>/ask`: the passages of the person's documents that answer `question`. */
export async function askKnowledgeBase(documentsUrl: string, question: string, accessToken: string) {
  return (
    await requestJson(`${documentsUrl}/ask`, { method: 'POST', body: { question }, accessToken, schema: AnswerSchema })
  ).data;
}

/**
 * Attaches `file` to a document the way the API asks every client to: an upload grant for the document's `document`
 * field, the file sent with it, then the document written with the uploaded file's id.
 */
export async function attachFile(documentUrl: string, file: File, accessToken: string): Promise<void> {
  const grant = await requestJson(`${documentUrl}/files/document/grant`, {
    method: 'POST',
    body: { name: file.name, mimeType: file.type, size: file.size },
    accessToken,
    schema: z.object({ uploadUrl: z.string(), uploadHeader: z.object({ value: z.string() }) }),
  });
  const form = new FormData();
  form.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetch(grant.uploadUrl, {
      method: 'POST',
      headers: { [UPLOAD_GRANT_HEADER]: grant.uploadHeader.value },
      body: form,
    });
  } catch {
    throw new Error('The file could not reach the server. Check your connection and try again.');
  }
  if (!response.ok) throw await toApiError(response);
  const uploaded = z.object({ file: z.object({ fileId: z.string() }) }).safeParse(await response.json());
  if (!uploaded.success) throw new Error('The server answered the upload in an unexpected way. Try again.');
  await requestJson(documentUrl, {
    method: 'PUT',
    body: { document: { fileId: uploaded.data.file.fileId, updatedAt: new Date().toISOString() } },
    accessToken,
    schema: z.unknown(),
  });
}

const FAILURE_WORDS: Record<string, string> = {
  malformed_document:
    'The file is damaged or is not the kind of file its name says. Save it again and attach the new copy.',
  limit_exceeded: 'The file is too large or too complex to read. Attach a smaller file.',
  unsupported_media_type: 'This kind of file cannot be read. Attach a PDF, a Word document or a text file.',
  no_text_layer: 'The file has no text to read (it may be a scanned image). Attach a copy with selectable text.',
  storage_unavailable: 'The file could not be read just now. It will be tried again shortly.',
  provider_unavailable: 'The file could not be read just now. It will be tried again shortly.',
};

/** Why a file could not be indexed, in words a person can act on. */
export function failureInWords(reason: string | null): string {
  return (reason && FAILURE_WORDS[reason]) || 'The file could not be read. Attach it again, or another copy of it.';
}
