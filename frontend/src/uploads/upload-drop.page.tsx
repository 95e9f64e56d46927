import { When } from '../ui/dates';
import { useCallback, useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { FailureAlert, LoadingStatus } from '../page-states';
import { useDocumentTitle } from '../routing/document-title';
import {
  fileProblem,
  formatBytes,
  parseDropPageLink,
  readUploadStatus,
  sendUpload,
  type DropPageLink,
  type UploadGrantStatus,
} from './upload-grant.client';
import { FilePicker } from './file-picker';
import './uploads.css';

type PageState =
  | { kind: 'invalid-link' }
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; status: UploadGrantStatus };

type Transfer =
  | { kind: 'idle' }
  | { kind: 'refused'; message: string }
  | { kind: 'uploading'; name: string; loaded: number; total: number }
  | { kind: 'failed'; message: string };

/**
 * `/uploads#grant=...&status=...`: the drop page an upload grant links to. A person drops (or chooses) one file; it
 * is checked against the field, sent with the grant, its progress shown, then the grant's status is read back.
 * The grant stays in the fragment, which the browser never sends to a server.
 */
export function UploadDropPage() {
  useDocumentTitle('Upload a file');
  const [link, setLink] = useState<DropPageLink | null>(() => parseDropPageLink(window.location.hash));
  const [page, setPage] = useState<PageState>(link ? { kind: 'loading' } : { kind: 'invalid-link' });
  const [transfer, setTransfer] = useState<Transfer>({ kind: 'idle' });

  useEffect(() => {
    // A link opened in a tab that already shows this page changes only the fragment.
    const onHashChange = () => {
      const next = parseDropPageLink(window.location.hash);
      setLink(next);
      setPage(next ? { kind: 'loading' } : { kind: 'invalid-link' });
      setTransfer({ kind: 'idle' });
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);

  const refresh = useCallback(async () => {
    if (!link) return;
    try {
      setPage({ kind: 'ready', status: await readUploadStatus(link.statusUrl) });
    } catch (error) {
      setPage({
        kind: 'error',
        message: error instanceof Error ? error.message : 'The upload link could not be read.',
      });
    }
  }, [link]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const send = useCallback(
    async (file: File, status: UploadGrantStatus) => {
      if (!link) return;
      const problem = fileProblem(file, status.field);
      if (problem) return setTransfer({ kind: 'refused', message: problem });
      setTransfer({ kind: 'uploading', name: file.name, loaded: 0, total: file.size });
      try {
        await sendUpload(status.uploadUrl, link.grant, file, (loaded, total) =>
          setTransfer({ kind: 'uploading', name: file.name, loaded, total }),
        );
        setTransfer({ kind: 'idle' });
        await refresh();
      } catch (error) {
        setTransfer({ kind: 'failed', message: error instanceof Error ? error.message : 'The upload failed.' });
      }
    },
    [link, refresh],
  );

  return (
    <>
      <h1 className="page-title">Upload a file</h1>
      <section className="panel" aria-labelledby="upload-heading">
        <h2 id="upload-heading" className="panel__title">
          Your file
        </h2>
        <PageBody
          page={page}
          transfer={transfer}
          onFile={(file, status) => void send(file, status)}
          onRetry={() => void refresh()}
        />
      </section>
    </>
  );
}

function PageBody({
  page,
  transfer,
  onFile,
  onRetry,
}: {
  page: PageState;
  transfer: Transfer;
  onFile: (file: File, status: UploadGrantStatus) => void;
  onRetry: () => void;
}) {
  switch (page.kind) {
    case 'invalid-link':
      return (
        <FailureAlert
          summary="This upload link is incomplete."
          message="Open the whole link you were given, or ask for a new one."
        />
      );
    case 'loading':
      return <LoadingStatus>Reading the upload link…</LoadingStatus>;
    case 'error':
      return <FailureAlert summary="The upload link could not be read." message={page.message} onRetry={onRetry} />;
    case 'ready':
      return <StatusView status={page.status} transfer={transfer} onFile={onFile} />;
  }
}

function StatusView({
  status,
  transfer,
  onFile,
}: {
  status: UploadGrantStatus;
  transfer: Transfer;
  onFile: (file: File, status: UploadGrantStatus) => void;
}) {
  if (status.state === 'redeemed' && status.file) {
    return (
      <div role="status" className="status status--ok">
        <p className="status__summary">Uploaded: {status.file.name}</p>
        <p className="status__detail">
          {formatBytes(status.file.size)}, {status.file.mediaType}. You can close this page; the file now waits to be
          attached.
        </p>
        <p className="status__detail break-anywhere">
          File id: <code>{status.file.fileId}</code>
        </p>
      </div>
    );
  }
  if (status.state === 'expired')
    return <FailureAlert summary="This upload link has expired." message="Ask for a new upload link." />;
  if (status.state === 'failed')
    return <FailureAlert summary="This upload link was used, but no file was stored." message="Ask for a new one." />;
  return <DropZone status={status} transfer={transfer} onFile={(file) => onFile(file, status)} />;
}

function DropZone({
  status,
  transfer,
  onFile,
}: {
  status: UploadGrantStatus;
  transfer: Transfer;
  onFile: (file: File) => void;
}) {
  const inputId = useId();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const busy = transfer.kind === 'uploading';
  const pick = (files: FileList | null) => {
    const file = files?.[0];
    if (file && !busy) onFile(file);
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    pick(event.dataTransfer.files);
  };
  return (
    <>
      <div
        className={`dropzone${over ? ' dropzone--over' : ''}`}
        data-testid="dropzone"
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p className="dropzone__prompt">Drop one file here</p>
        <p id={hintId} className="muted">
          {status.field.allowedMimeTypes.join(', ')} · at most {formatBytes(status.field.maxSizeBytes)} · link valid
          until <When iso={status.expiresAt} />
        </p>
        <FilePicker
          inputRef={input}
          inputId={inputId}
          hintId={hintId}
          label="Choose a file"
          labelClassName="button button--primary"
          accept={status.field.allowedMimeTypes.join(',')}
          disabled={busy}
          onFiles={pick}
        />
      </div>
      <TransferView transfer={transfer} />
    </>
  );
}

function TransferView({ transfer }: { transfer: Transfer }) {
  switch (transfer.kind) {
    case 'idle':
      return null;
    case 'refused':
      return <FailureAlert summary="This file cannot be uploaded here." message={transfer.message} />;
    case 'failed':
      return <FailureAlert summary="The upload failed." message={transfer.message} />;
    case 'uploading': {
      const percent = transfer.total > 0 ? Math.round((transfer.loaded / transfer.total) * 100) : 0;
      return (
        <div role="status" className="status status--loading">
          <p className="status__summary">Uploading {transfer.name}…</p>
          <progress className="upload-progress" max={100} value={percent} aria-label="Upload progress">
            {percent}%
          </progress>
          <p className="status__detail">{percent}%</p>
        </div>
      );
    }
  }
}
