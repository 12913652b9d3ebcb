import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from 'react-router'
import { Link, useActionData, useLoaderData } from 'react-router'
import { AnswerEditor } from '~/components/answer-editor'
import { useLocalTimeZone } from '~/hooks/use-local-time-zone'
import { AiUseStatement } from '~/components/ai-use-statement'
import { FunderLine } from '~/components/narrative-details'
import { ActionToast } from '~/components/toaster'
import { requireUser } from '~/server/accounts/auth.server'
import { readForm } from '~/server/http/form.server'
import { rateLimitedPageHeaders } from '~/server/http/rate-limited-page.server'
import { refusalReply } from '~/server/http/refusal-reply.server'
import { dataWithError, redirectWithSuccess } from '~/server/http/toast.server'
import { getApplication, saveAnswer } from '~/server/narratives/application.server'
import { AnswerFormSchema, type Conflict, type Place } from '~/shared/application'
import { intentOf } from '~/shared/form'
import { STAGE_LABELS } from '~/shared/stages'
import { unitLabel } from '~/shared/variant-limits'

export const meta: MetaFunction<typeof loader> = ({ loaderData: data }) => [
  {
    title: data
      ? `${data.company}: Application to ${data.funder.name} | Impact Narrative Studio`
      : 'Application not found | Impact Narrative Studio',
  },
]

export const headers = rateLimitedPageHeaders

export { revalidateWhenGone as shouldRevalidate } from '~/shared/revalidate'

const narrativePath = (id: string) => `/admin/narratives/${encodeURIComponent(id)}`

export async function loader({ request, params, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  const application = await getApplication({ id: params.id ?? '', viewer: user, signal: request.signal })
  if (!application) throw new Response('Not found', { status: 404 })
  return application
}

export async function action({ request, params, url }: ActionFunctionArgs) {
  const user = await requireUser({ request, url })
  const id = params.id ?? ''
  const formData = await readForm(request)
  intentOf(formData, ['answer'])
  const parsed = AnswerFormSchema.safeParse(Object.fromEntries(formData))
  const question = Number(formData.get('question'))
  const typed = String(formData.get('text') ?? '')
  if (!parsed.success) return refused(question, typed, parsed.error.issues[0].message)
  let saved
  try {
    saved = await saveAnswer({ id, viewer: user, index: parsed.data.question, text: parsed.data.text })
  } catch (error) {
    // A rate limit's Retry-After goes with it (the page's headers pass it on).
    return refusalReply(error, ({ message }) => ({ question, text: typed, error: message }))
  }
  if (!saved) throw new Response('Not found', { status: 404 })
  return redirectWithSuccess(`${narrativePath(id)}/application#question-${parsed.data.question + 1}`, 'Answer saved.')
}

/** The answer refused comes back with the reason, so what was typed stays in its box. */
function refused(question: number, text: string, error: string) {
  return dataWithError({ question, text, error }, error, { status: 400 })
}

export default function NarrativeApplication() {
  const application = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { id, company, funder, questions, narrative, stage, disclosure, writing } = application
  const basePath = `${narrativePath(id)}/application`
  return (
    <div className="page">
      <ActionToast from={actionData} />
      <header className="page-header">
        <h1>Application to {funder.name}</h1>
        <p className="page-subtitle">{company}</p>
        <FunderLine funder={{ ...funder, amountRequested: application.amountRequested, deadline: application.deadline }} />
        <p>
          Stage: <Link to={`${narrativePath(id)}#stage`}>{STAGE_LABELS[stage]}</Link>
        </p>
      </header>
      <p className="back-link">
        <Link to={narrativePath(id)} className="button button-secondary">
          Back to the narrative
        </Link>
      </p>
      <div className="card">
        <section className="section-block" aria-labelledby="application-questions-title" id="application-questions">
          <h2 id="application-questions-title">The call's questions</h2>
          {writing ? <p role="status">The narrative is still being written: its answers can be written once it is done.</p> : null}
          {questions.length ? (
            <ol className="question-list">
              {questions.map((question) => {
                const refusedHere = actionData && 'question' in actionData && actionData.question === question.index ? actionData : null
                return (
                  <li key={`${question.index}-${question.text}`} className="card question-card" id={`question-${question.index + 1}`}>
                    <h3>Question {question.index + 1}</h3>
                    <p className="question-text" id={`question-${question.index}-text`}>
                      {question.text}
                    </p>
                    <p className="field-hint" id={`question-${question.index}-hint`}>
                      At most {question.limit.max} {unitLabel(question.limit)}.
                      {question.answer ? '' : ' Not answered yet: write the answer here, or have one written on the narrative’s page.'}
                    </p>
                    {writing ? null : (
                      <AnswerEditor
                        key={question.answer?.id ?? 'none'}
                        basePath={basePath}
                        index={question.index}
                        limit={question.limit}
                        text={refusedHere?.text ?? question.answer?.text ?? ''}
                        error={refusedHere?.error ?? null}
                      />
                    )}
                    <Conflicts conflicts={question.conflicts} Heading="h4" />
                  </li>
                )
              })}
            </ol>
          ) : (
            <p>The call as saved asks no questions: the narrative below is the application.</p>
          )}
        </section>
        <section className="section-block" aria-labelledby="application-narrative-title" id="application-narrative">
          <h2 id="application-narrative-title">The narrative</h2>
          <p>{narrative.text}</p>
          <Conflicts conflicts={narrative.conflicts} Heading="h3" />
        </section>
        {disclosure ? <AiUseStatement statement={disclosure} /> : null}
        <ApplicationFile id={id} withStatement={Boolean(disclosure)} />
      </div>
    </div>
  )
}

/** A plain GET form, so the file comes without JavaScript too; the statement is the person's choice, as funders' rules differ. */
function ApplicationFile({ id, withStatement }: { id: string; withStatement: boolean }) {
  const timeZone = useLocalTimeZone()
  const path = `/resources/narratives/${encodeURIComponent(id)}/application`
  return (
    <section className="section-block" aria-labelledby="application-file-title" id="application-file">
      <h2 id="application-file-title">The whole application as one file</h2>
      <p className="field-hint">Each question with its answer and count, in the call's order, then the narrative and the contacts.</p>
      <form method="get" action={`${path}/docx`} className="application-file-form">
        {/* The title's date in the reader's time zone, once the page runs; without JavaScript, UTC's. */}
        {timeZone === 'UTC' ? null : <input type="hidden" name="tz" value={timeZone} />}
        {withStatement ? (
          <div className="field field-checkbox">
            <input type="checkbox" id="application-statement" name="statement" value="1" />
            <label htmlFor="application-statement">Add how the text was made (the AI-use statement above)</label>
          </div>
        ) : null}
        <div className="actions">
          <button type="submit" className="button button-secondary">
            Download as Word
          </button>
          <button type="submit" formAction={`${path}/pdf`} className="button button-secondary">
            Download as PDF
          </button>
        </div>
      </form>
    </section>
  )
}

/** Figures this text states differently from another of the application, each with what the inputs say. */
function Conflicts({ conflicts, Heading }: { conflicts: Conflict[]; Heading: 'h3' | 'h4' }) {
  if (!conflicts.length) return null
  return (
    <div className="conflicts" role="note" aria-label="Figures that disagree">
      <Heading>Figures that disagree</Heading>
      <ul>
        {conflicts.map((conflict) => (
          <li key={conflict.figure}>
            Here: <strong>{conflict.figure}</strong>;{' '}
            {conflict.elsewhere.map((other) => `${placeName(other.question)}: ${other.figure}`).join('; ')}.
            {conflict.inputs.length ? ` Your inputs say ${conflict.inputs.join(' and ')}.` : ' Your inputs do not say.'}
          </li>
        ))}
      </ul>
    </div>
  )
}

const placeName = (question: Place) => (question === null ? 'the narrative' : `answer ${question + 1}`)
