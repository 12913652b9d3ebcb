import { Form, useNavigation, useSubmit } from 'react-router'
import type { FormEvent } from 'react'
import { unitLabel, type Limit } from '~/shared/variant-limits'
import { variantCost, variantsUsedUp } from '~/shared/allowance'

/** Plain forms: without JavaScript the page waits for the answer; with it, the answer streams in the variants' panel above. */
export function QuestionAnswers({
  basePath,
  funder,
  questions,
  variantsLeft,
  writing,
}: {
  basePath: string
  funder: string
  questions: { text: string; limit: Limit }[]
  /** Null when answers cost nothing (the offline drafter). */
  variantsLeft: number | null
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
        Each answer is written from this narrative alone, within the question's own limit, and joins the variants above.{' '}
        {variantCost(variantsLeft)}
      </p>
      <ol className="question-list">
        {questions.map((question, index) => (
          <li key={`${index}-${question.text}`} className="card question-card">
            <p className="question-text">{question.text}</p>
            <Form method="post" action={basePath} onSubmit={stream} preventScrollReset>
              <input type="hidden" name="intent" value="variant" />
              <input type="hidden" name="format" value="question" />
              <input type="hidden" name="question" value={index} />
              <button type="submit" className="button button-secondary" disabled={writing || starting || variantsUsedUp(variantsLeft)}>
                Answer within {question.limit.max} {unitLabel(question.limit)}
                <span className="visually-hidden">: question {index + 1}</span>
              </button>
            </Form>
          </li>
        ))}
      </ol>
    </section>
  )
}
