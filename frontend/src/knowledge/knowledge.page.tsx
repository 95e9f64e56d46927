import { textOf } from '../api/rest.client';
import { atLeast } from '../organizations/roles';
import { DOCUMENTS_KIND } from '../records/record-kinds';
import { RecordsPage } from '../records/records.page';
import { AskPanel } from './ask-panel';
import { DocumentFile } from './document-file';

/**
 * `/organizations/:id/documents`: the knowledge documents (each with its attached file and how far its indexing
 * got), and a question to ask them, answered with its sources.
 */
export function KnowledgePage({ organizationId, callerRole }: { organizationId: string; callerRole: string | null }) {
  const documentsUrl = `/api/v1/organizations/${encodeURIComponent(organizationId)}/${DOCUMENTS_KIND.segment}`;
  // Attaching a file writes the document: the same role as editing it.
  const mayAttach = atLeast(callerRole, DOCUMENTS_KIND.roles.update);
  return (
    <>
      <RecordsPage
        organizationId={organizationId}
        kind={DOCUMENTS_KIND}
        callerRole={callerRole}
        recordExtras={(record, recordUrl) => (
          <DocumentFile documentUrl={recordUrl} title={textOf(record.title, record._id)} mayAttach={mayAttach} />
        )}
      />
      <AskPanel documentsUrl={documentsUrl} />
    </>
  );
}
