import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../App';
import { json, stubBackend, type Routes } from '../test-support/fetch-routes';
import { handWrittenResourceDescriptions, openAt, signIn, TEST_USER } from '../test-support/fixtures';
import { CONTRACT_VOCABULARY } from '../ui/people-words';

const DOCS = '/api/v1/organizations/org-1/knowledge-documents';

function openDocuments(role: string, routes: Routes) {
  signIn();
  openAt('/organizations/org-1/documents');
  const backend = stubBackend({
    ...handWrittenResourceDescriptions(),
    'GET /api/v1/auth/me': json({
      data: { user: TEST_USER, organizations: [{ _id: 'org-1', name: 'Analytical Engines', role }] },
    }),
    [`GET ${DOCS}?limit=5`]: json({ data: [{ _id: 'doc-1', title: 'Parking rules', body: '' }], nextCursor: null }),
    ...routes,
  });
  render(<App />);
  return backend;
}

const source = (status: string, failureReason: string | null = null) =>
  json({ data: { sources: [{ field: 'document', kind: 'file', status, failureReason, chunkCount: 3 }] } });

describe('knowledge documents in the browser', () => {
  it('says in plain words why a file could not be indexed, and offers a member no attaching', async () => {
    openDocuments('ORG_MEMBER', { [`POST ${DOCS}/doc-1/ingestion`]: source('failed', 'no_text_layer') });
    expect(await screen.findByText(/has no text to read/)).toBeTruthy();
    expect(screen.queryByLabelText('Attach a file to Parking rules')).toBeNull();
    expect(document.body.textContent).not.toMatch(/no_text_layer/);
  });

  it('attaches a file through a grant, the upload and the document write, then shows it indexed', async () => {
    let ingested = false;
    const backend = openDocuments('ORG_ADMIN', {
      [`POST ${DOCS}/doc-1/ingestion`]: () => (ingested ? source('indexed') : json({ data: { sources: [] } })),
      [`POST ${DOCS}/doc-1/files/document/grant`]: json(
        { uploadUrl: `${window.location.origin}/upload-here`, uploadHeader: { value: 'grant-1' } },
        201,
      ),
      'POST /upload-here': json({ state: 'redeemed', file: { fileId: 'file_1' } }, 201),
      [`PUT ${DOCS}/doc-1`]: () => {
        ingested = true;
        return json({ data: { _id: 'doc-1' } });
      },
    });
    const picker = await screen.findByLabelText('Attach a file to Parking rules');
    expect(await screen.findByText('No file attached.')).toBeTruthy();
    const file = new File(['%PDF-1.4'], 'parking.pdf', { type: 'application/pdf' });
    fireEvent.change(picker, { target: { files: [file] } });
    expect(await screen.findByText(/File indexed: 3 passages/)).toBeTruthy();
    expect(backend.callsTo(`POST ${DOCS}/doc-1/files/document/grant`)[0]?.body).toEqual({
      name: 'parking.pdf',
      mimeType: 'application/pdf',
      size: 8,
    });
    const written = backend.callsTo(`PUT ${DOCS}/doc-1`)[0]?.body as { document: { fileId: string } };
    expect(written.document.fileId).toBe('file_1');
  });

  it('refuses a file of another kind before anything is sent', async () => {
    const backend = openDocuments('ORG_ADMIN', { [`POST ${DOCS}/doc-1/ingestion`]: json({ data: { sources: [] } }) });
    const picker = await screen.findByLabelText('Attach a file to Parking rules');
    fireEvent.change(picker, { target: { files: [new File(['x'], 'cat.png', { type: 'image/png' })] } });
    expect(await screen.findByText(/Attach a PDF, a Word document/)).toBeTruthy();
    expect(backend.callsTo(`POST ${DOCS}/doc-1/files/document/grant`)).toHaveLength(0);
  });

  it('answers a question with its sources', async () => {
    openDocuments('ORG_MEMBER', {
      [`POST ${DOCS}/doc-1/ingestion`]: source('indexed'),
      [`POST ${DOCS}/ask`]: json({
        data: {
          sources: [
            {
              knowledgeDocumentId: 'doc-1',
              header: 'Parking rules',
              passages: [{ field: 'document', text: 'Visitors park on level minus two' }],
            },
          ],
        },
      }),
    });
    fireEvent.change(await screen.findByLabelText('Question'), { target: { value: 'Where do visitors park?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Ask' }));
    const sources = await screen.findByRole('list', { name: 'Sources' });
    expect(within(sources).getByRole('heading', { name: 'Source: Parking rules' })).toBeTruthy();
    expect(within(sources).getByText('Visitors park on level minus two')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(CONTRACT_VOCABULARY);
  });
});
