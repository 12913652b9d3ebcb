import { Form, useNavigation } from 'react-router'
import { useState } from 'react'
import { ErrorList, SubmitButton } from '~/components/forms'
import { measure, unitLabel, type Limit } from '~/shared/variant-limits'

/** The count follows the typing under the question's own rule; the server refuses an answer over the limit. */
export function AnswerEditor({
  basePath,
  index,
  limit,
  text,
  error,
}: {
  basePath: string
  index: number
  limit: Limit
  /** The answer kept, or the one just refused (so nothing typed is lost). */
  text: string
  error: string | null
}) {
  const [draft, setDraft] = useState(text)
  const navigation = useNavigation()
  const id = `answer-${index}`
  const count = measure(draft, limit)
  const over = count - limit.max
  return (
    <Form method="post" encType="multipart/form-data" action={basePath} className="answer-form" preventScrollReset>
      <input type="hidden" name="intent" value="answer" />
      <input type="hidden" name="question" value={index} />
      <div className="field">
        <label htmlFor={id}>Answer to question {index + 1}</label>
        <textarea
          id={id}
          name="text"
          rows={6}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          aria-describedby={`question-${index}-text question-${index}-hint ${id}-count${error ? ` ${id}-error` : ''}`}
          aria-invalid={over > 0 || (Boolean(error) && draft === text) || undefined}
        />
        <p id={`${id}-count`} className={`word-count${over > 0 ? '' : ' word-count-ok'}`}>
          {count} / {limit.max} {unitLabel(limit)}
          {over > 0 ? ` (${over} over the limit)` : ''}
        </p>
        <LimitStatus id={`${id}-status`} over={over > 0} />
        <ErrorList id={`${id}-error`} errors={error ? [error] : null} />
      </div>
      <SubmitButton
        pendingText="Saving..."
        className="button button-secondary"
        pending={navigation.formData?.get('intent') === 'answer' && navigation.formData.get('question') === String(index)}
      >
        Save answer<span className="visually-hidden"> to question {index + 1}</span>
      </SubmitButton>
    </Form>
  )
}

/** Said once as the answer crosses its limit, either way: the count itself changes at every key, too often to announce. */
function LimitStatus({ id, over }: { id: string; over: boolean }) {
  const [said, setSaid] = useState<boolean | null>(null)
  if (said !== null ? said !== over : over) setSaid(over)
  return (
    <p id={id} role="status" className="visually-hidden">
      {said === null ? '' : said ? 'The answer is over its limit.' : 'The answer is within its limit again.'}
    </p>
  )
}
