import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { describeFailure } from '../api/api.client';
import { readAccessToken } from '../session/access-token.store';
import { FilePicker } from '../uploads/file-picker';
import { formatBytes } from '../uploads/upload-grant.client';
import {
  attachFile,
  DOCUMENT_FILE_TYPES,
  failureInWords,
  readIngestion,
  type IngestionSource,
} from './knowledge.client';

const MAX_BYTES = 25 * 1024 * 1024;
/** How often a pending file's state is read again while the page shows it. */
const POLL_MS = 1500;

type FileState =
  | { kind: 'loading' }
  | { kind: 'none' }
  | { kind: 'source'; source: IngestionSource }
  | { kind: 'sending'; name: string }
  | { kind: 'refused'; message: string };

/**
 * A knowledge document's file: its indexing state (pending, indexed, or failed with a reason a person can act on)
 * and, for those who may change the document, a file picker and a drop zone that attach a file through an upload
 * grant.
 */
export function DocumentFile({
  documentUrl,
  title,
  mayAttach,
}: {
  documentUrl: string;
  title: string;
  mayAttach: boolean;
}) {
  const [state, setState] = useState<FileState>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [over, setOver] = useState(false);
  const inputId = useId();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const accessToken = readAccessToken();
    if (!accessToken) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () =>
      readIngestion(documentUrl, accessToken, controller.signal).then(
        (sources) => {
          const source = sources.find((item) => item.field === 'document');
          setState(source ? { kind: 'source', source } : { kind: 'none' });
          // Extraction runs in the background: read again until it is done.
          if (source?.status === 'pending') timer = setTimeout(() => void read(), POLL_MS);
        },
        () => {
          if (!controller.signal.aborted) setState({ kind: 'none' });
        },
      );
    void read();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [documentUrl, attempt]);

  const send = async (file: File | undefined) => {
    if (!file) return;
    const type = file.type.split(';')[0]?.trim() ?? '';
    if (!(DOCUMENT_FILE_TYPES as readonly string[]).includes(type)) {
      setState({ kind: 'refused', message: 'Attach a PDF, a Word document (.docx) or a text file.' });
      return;
    }
    if (file.size > MAX_BYTES) {
      setState({ kind: 'refused', message: `Attach a file of at most ${formatBytes(MAX_BYTES)}.` });
      return;
    }
    const accessToken = readAccessToken();
    if (!accessToken) return;
    setState({ kind: 'sending', name: file.name });
    try {
      await attachFile(documentUrl, file, accessToken);
      setAttempt((n) => n + 1);
    } catch (error) {
      setState({
        kind: 'refused',
        message: error instanceof Error && !('code' in error) ? error.message : describeFailure(error),
      });
    }
    if (input.current) input.current.value = '';
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    void send(event.dataTransfer.files[0]);
  };

  return (
    <div className="document-file">
      <p className="document-file__state" role="status">
        <FileStateText state={state} />
      </p>
      {mayAttach ? (
        <div
          className={`dropzone dropzone--compact${over ? ' dropzone--over' : ''}`}
          onDragOver={(event) => {
            event.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
        >
          <p id={hintId} className="muted">
            Drop a PDF, Word or text file here (at most {formatBytes(MAX_BYTES)}), or
          </p>
          <FilePicker
            inputRef={input}
            inputId={inputId}
            hintId={hintId}
            label={`Attach a file to ${title}`}
            labelClassName="button"
            accept={DOCUMENT_FILE_TYPES.join(',')}
            disabled={state.kind === 'sending'}
            onFiles={(files) => void send(files?.[0])}
          />
        </div>
      ) : null}
    </div>
  );
}

function FileStateText({ state }: { state: FileState }) {
  switch (state.kind) {
    case 'loading':
      return <>Checking the attached file…</>;
    case 'none':
      return <>No file attached.</>;
    case 'sending':
      return <>Sending {state.name}…</>;
    case 'refused':
      return <span className="field__error">The file was not attached. {state.message}</span>;
    case 'source':
      if (state.source.status === 'pending') return <>File attached: being indexed…</>;
      if (state.source.status === 'indexed')
        return (
          <>
            File indexed: {state.source.chunkCount} {state.source.chunkCount === 1 ? 'passage' : 'passages'} can answer
            questions.
          </>
        );
      return (
        <span className="field__error">
          The file could not be indexed. {failureInWords(state.source.failureReason)}
        </span>
      );
  }
}
