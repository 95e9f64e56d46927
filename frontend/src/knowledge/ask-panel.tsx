import { useState, type FormEvent } from 'react';
import { FailureAlertOf } from '../ui/failure-alert-of';
import { fieldProblemsOf, TextField } from '../ui/form-fields';
import { useAction } from '../ui/use-action';
import { askKnowledgeBase, type KnowledgeAnswer } from './knowledge.client';

/** Asks the organization's knowledge base a question and shows the documents and passages that answer it. */
export function AskPanel({ documentsUrl }: { documentsUrl: string }) {
  const [question, setQuestion] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [answer, setAnswer] = useState<KnowledgeAnswer | null>(null);
  const action = useAction();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (question.trim().length < 3) {
      setProblem('Ask a question of at least 3 characters.');
      return;
    }
    setProblem(undefined);
    const failed = await action.run('The question was not answered.', async (token) => {
      const found = await askKnowledgeBase(documentsUrl, question.trim(), token);
      setAnswer(found);
      return found.sources.length
        ? `Found ${found.sources.length} ${found.sources.length === 1 ? 'document' : 'documents'}.`
        : 'Nothing in your documents matches this question.';
    });
    if (failed) setProblem(fieldProblemsOf(failed).question);
  };

  return (
    <section className="panel" aria-labelledby="ask-title">
      <h2 id="ask-title" className="section-title">
        Ask your documents
      </h2>
      <form className="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextField label="Question" value={question} onChange={setQuestion} error={problem} />
        <button type="submit" className="button button--primary" disabled={action.busy}>
          {action.busy ? 'Searching…' : 'Ask'}
        </button>
      </form>
      <p role="status" className="live">
        {action.message ?? ''}
      </p>
      {action.failure ? <FailureAlertOf failure={action.failure} /> : null}
      {answer && answer.sources.length > 0 ? (
        <ol className="answer-sources" aria-label="Sources">
          {answer.sources.map((source) => (
            <li key={source.knowledgeDocumentId} className="record">
              <h3 className="record__title">Source: {source.header}</h3>
              {source.passages.map((passage, index) => (
                <blockquote key={index} className="answer-passage">
                  {passage.text}
                </blockquote>
              ))}
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
