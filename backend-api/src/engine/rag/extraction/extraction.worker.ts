// The extraction worker's entry: runs the local readers on the documents its parent sends, one at a time.
import { parentPort } from 'node:worker_threads';
import { readDocumentLocally } from './document-text.js';
import type { ExtractionWorkerReply, ExtractionWorkerRequest } from './extraction-worker.js';
import { ExtractionError } from './extraction.types.js';

const port = parentPort;
if (port) {
  port.on('message', (request: ExtractionWorkerRequest) => {
    void readDocumentLocally(request.input, request.limits).then(
      (reading) => port.postMessage({ id: request.id, reading } satisfies ExtractionWorkerReply),
      (error: unknown) =>
        port.postMessage({
          id: request.id,
          failure:
            error instanceof ExtractionError
              ? { reason: error.reason, message: error.message, ...(error.limit ? { limit: error.limit } : {}) }
              : { reason: 'malformed_document', message: 'The document cannot be read.' },
        } satisfies ExtractionWorkerReply),
    );
  });
  port.postMessage({ ready: true } satisfies ExtractionWorkerReply);
}
