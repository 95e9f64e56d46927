import type { Logger } from '../../logging/index.js';
import type { ExecutionContext } from '../../resources/index.js';
import { extractDocumentText, type LocalDocumentReader, type TextRecognitionProvider } from './document-text.js';
import { ExtractionError, type ExtractedText, type ExtractionLimits } from './extraction.types.js';

/** A stored file as extraction reads it: its declared media type and a way to download its bytes. */
export interface ExtractableFile {
  fileId: string;
  mediaType: string;
  /** Downloads the bytes from the file's storage provider. */
  read(): Promise<Uint8Array>;
}

/** Options of {@link FileTextExtractionService}. */
export interface FileTextExtractionOptions {
  logger: Logger;
  limits?: Partial<ExtractionLimits>;
  provider?: TextRecognitionProvider;
  /** Where the local readers run (the backend passes its extraction worker); this thread by default. */
  reader?: LocalDocumentReader;
}

/**
 * `fileTextExtraction.extractText(file, executionContext, { allowProviderExtraction })`: downloads a stored file
 * and extracts its text. A failed download is `storage_unavailable` (retryable), distinct from a malformed
 * document; see {@link extractDocumentText} for the readers and bounds.
 */
export class FileTextExtractionService {
  constructor(private readonly options: FileTextExtractionOptions) {}

  async extractText(
    file: ExtractableFile,
    executionContext: Pick<ExecutionContext, 'requestId'>,
    extraction: { allowProviderExtraction: boolean },
  ): Promise<ExtractedText> {
    let bytes: Uint8Array;
    try {
      bytes = await file.read();
    } catch (error) {
      this.options.logger.warn('file download for text extraction failed', {
        fileId: file.fileId,
        requestId: executionContext.requestId,
        error: String(error),
      });
      throw new ExtractionError('storage_unavailable', 'The file could not be downloaded; retry later.', {
        cause: error,
      });
    }
    return extractDocumentText(
      { bytes, mediaType: file.mediaType },
      {
        allowProviderExtraction: extraction.allowProviderExtraction,
        ...(this.options.limits ? { limits: this.options.limits } : {}),
        ...(this.options.provider ? { provider: this.options.provider } : {}),
        ...(this.options.reader ? { reader: this.options.reader } : {}),
      },
    );
  }
}
