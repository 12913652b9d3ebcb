import { Form, useNavigation, useSubmit } from 'react-router'
import type { FormEvent } from 'react'
import type { Limit } from '~/shared/variant-limits'

/** Plain forms: without JavaScript the page waits for the answer; with it, the answer streams in the variants' panel above. */
export function QuestionAnswers({
  basePath,
  funder,
  questions,
  remaining,
  writing,
}: {
  basePath: string
  funder: string
  questions: { text: string; limit: Limit }[]
  remaining: number
  writing: boolean
}) {
  const submit = useSubmit()
  const navigation = useNavigation()
  const starting = navigation.state !== 'idle' && navigation.formData?.get('format') === 'question'
  function stream(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const formData = new FormData(event.currentTarget)
    formData.set('mode', 'stream')
    submit(formData, { method: 'POST', action: basePath, replace: true, preventScrollReset: true })
  }
  return (
    <section className="section-block" aria-labelledby="questions-title" id="questions">
      <h2 id="questions-title">Answer {funder}'s questions</h2>
      <p className="field-hint">
        Each answer is written from this narrative alone, within the question's own limit, and joins the variants above. Each uses one of
        today's narratives ({remaining} left).
      </p>
      <ol className="question-list">
        {questions.map((question, index) => (
          <li key={`${index}-${question.text}`} className="card question-card">
            <p className="question-text">{question.text}</p>
            <Form method="post" action={basePath} onSubmit={stream} preventScrollReset>
              <input type="hidden" name="intent" value="variant" />
              <input type="hidden" name="format" value="question" />
              <input type="hidden" name="question" value={index} />
              <button type="submit" className="button button-secondary" disabled={writing || starting || remaining === 0}>
                Answer within {question.limit.max} {question.limit.unit}
                <span className="visually-hidden">: question {index + 1}</span>
              </button>
            </Form>
          </li>
        ))}
      </ol>
    </section>
  )
}
