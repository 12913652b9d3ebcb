import { getFormProps, getInputProps } from '@conform-to/react'
import { type ActionFunctionArgs, Form, Link, type LoaderFunctionArgs, type MetaFunction, useActionData, useLoaderData } from 'react-router'
import { ErrorList, Field, SubmitButton, TextareaField } from '~/components/forms'
import { ActionToast } from '~/components/toaster'
import { requireUser } from '~/server/accounts/auth.server'
import { dataWithError, redirectWithSuccess } from '~/server/http/toast.server'
import { rateLimitedPageHeaders } from '~/server/http/rate-limited-page.server'
import { refusalReply, unlessRefused } from '~/server/http/refusal-reply.server'
import { enforceCallReadingRateLimit } from '~/server/edge/limits.server'
import { callFromUpload } from '~/server/funders/call-file.server'
import { createFunder, listFunders, prioritiesOf, questionsOf } from '~/server/funders/funders.server'
import { formatDate } from '~/shared/dates'
import { useLocale } from '~/hooks/use-locale'
import { CALL_FILE_MAX_BYTES, CALL_FILE_TYPES, CallTextSchema, FUNDER_LIMITS, FunderAddFormSchema } from '~/shared/funder-schema'
import { intentOf, parseForm } from '~/shared/form'
import { useSchemaForm } from '~/hooks/use-schema-form'
import { readForm } from '~/server/http/form.server'

// A plain multipart form (docs/spec.md#funder-briefs): it works without JavaScript, and a file that cannot be read is
// refused with what was typed kept.

export const meta: MetaFunction = () => [{ title: 'Funder Briefs | Impact Narrative Studio' }]

export const headers = rateLimitedPageHeaders

const SAVED = 'Funder brief saved. Check what was understood of the call.'
const NOT_SAVED = 'The funder brief was not saved.'

export async function loader({ request, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  const funders = await listFunders(user)
  return {
    funders: funders.map((funder) => ({
      id: funder.id,
      name: funder.name,
      deadline: funder.deadline,
      priorities: prioritiesOf(funder).length,
      questions: questionsOf(funder).length,
      source: funder.source,
    })),
    full: funders.length >= FUNDER_LIMITS.saved,
  }
}

export async function action({ request, url }: ActionFunctionArgs) {
  const user = await requireUser({ request, url })
  // Counted before the form of up to 6 MB is parsed, as the API counts it (docs/decisions/025).
  const { refused } = await unlessRefused(
    () => enforceCallReadingRateLimit(user.id),
    (message) => ({ result: { status: 'error' as const, error: { '': [message] } } }),
  )
  if (refused) return refused
  const formData = await readForm(request)
  intentOf(formData, ['add'])
  const submission = parseForm(formData, FunderAddFormSchema)
  // A file cannot be sent back to the browser: everything else typed is.
  const refuse = (status: number, errors: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) =>
    dataWithError({ result: submission.reply({ ...errors, hideFields: ['file'] }) }, NOT_SAVED, { status })
  if (submission.status !== 'success') return refuse(400, {})
  // A refusal is said on the form (the file's, for the file's); the toast says what came of it.
  const refusedBy = (error: unknown, errors: (message: string) => Parameters<typeof refuse>[1]) =>
    refusalReply(
      error,
      ({ message }) => ({ result: submission.reply({ ...errors(message), hideFields: ['file'] }) }),
      () => NOT_SAVED,
    )
  let upload: Awaited<ReturnType<typeof callFromUpload>>
  try {
    upload = await callFromUpload(formData, { person: user.id, signal: request.signal })
  } catch (error) {
    return refusedBy(error, (message) => ({ fieldErrors: { file: [message] } }))
  }
  const callText = CallTextSchema.safeParse(upload?.text ?? submission.value.callText ?? '')
  if (!callText.success)
    return refuse(upload ? 422 : 400, { fieldErrors: { [upload ? 'file' : 'callText']: [callText.error.issues[0].message] } })
  try {
    const { name, deadline } = submission.value
    const funder = await createFunder(
      user,
      { name, callText: callText.data, ...(deadline ? { deadline } : {}), ...(upload ? { source: upload.source } : {}) },
      request.signal,
    )
    return redirectWithSuccess(`/funders/${encodeURIComponent(funder.id)}`, SAVED)
  } catch (error) {
    return refusedBy(error, (message) => ({ formErrors: [message] }))
  }
}

export default function FundersPage() {
  const { funders, full } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  return (
    <div className="page">
      <ActionToast from={reply} />
      <header className="page-header">
        <h1>Funder Briefs</h1>
        <p className="page-subtitle">
          One funder's call each: its priorities, questions, limits and deadline. Save a call once, then choose it on the dashboard to write
          a narrative that answers it.
        </p>
      </header>
      <section className="section-block" aria-labelledby="briefs-title">
        <h2 id="briefs-title">Your briefs</h2>
        {funders.length ? <BriefList funders={funders} /> : <p>No funder briefs yet. Add the first one below.</p>}
      </section>
      {full ? (
        <p className="field-hint">You keep {FUNDER_LIMITS.saved} funder briefs, the most one account can. Delete some to add more.</p>
      ) : (
        <AddBriefForm lastResult={reply?.result} />
      )}
    </div>
  )
}

type Brief = Awaited<ReturnType<typeof loader>>['funders'][number]

function BriefList({ funders }: { funders: Brief[] }) {
  const locale = useLocale()
  return (
    <ul className="brief-list">
      {funders.map((funder) => (
        <li key={funder.id} className="card brief-card">
          <h3>
            <Link to={`/funders/${encodeURIComponent(funder.id)}`}>{funder.name}</Link>
          </h3>
          <p className="brief-facts">
            {funder.deadline ? `Deadline ${formatDate(`${funder.deadline}T12:00:00Z`, 'UTC', locale)} · ` : ''}
            {count(funder.priorities, 'priority', 'priorities')} · {count(funder.questions, 'question', 'questions')}
            {funder.source !== 'pasted' ? ` · from ${funder.source}` : ''}
          </p>
          <p>
            <Link to={`/dashboard?funder=${encodeURIComponent(funder.id)}`} className="button button-secondary">
              Write a narrative for {funder.name}
            </Link>
          </p>
        </li>
      ))}
    </ul>
  )
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

function AddBriefForm({ lastResult }: { lastResult: Parameters<typeof useSchemaForm>[1]['lastResult'] }) {
  const [form, fields] = useSchemaForm(FunderAddFormSchema, { id: 'add-funder', lastResult })
  const fileHint = `A Word file (.docx), PDF, text or Markdown file of at most ${CALL_FILE_MAX_BYTES / 1024 / 1024} MB. When you choose one, it is read instead of the text above.`
  const fileProps = getInputProps(fields.file, { type: 'file', ariaDescribedBy: `${fields.file.id}-hint` })
  return (
    <section className="form-section" aria-labelledby="add-title">
      <h2 id="add-title">Add a funder brief</h2>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="add" />
        <Field meta={fields.name} label="Funder's name" hint="As the funder names itself, for example Lane County Community Foundation." />
        <TextareaField
          meta={fields.callText}
          label="The call's text"
          rows={10}
          hint="Paste the call for proposals or the guidelines: what the funder looks for, its questions and limits, the deadline."
        />
        <div className="field">
          <label htmlFor={fields.file.id}>Or the call as a file</label>
          <p id={`${fields.file.id}-hint`} className="field-hint">
            {fileHint}
          </p>
          <input {...fileProps} key={fileProps.key} accept={CALL_FILE_TYPES.join(',')} />
          <ErrorList id={fields.file.errorId} errors={fields.file.errors} />
        </div>
        <Field meta={fields.deadline} type="date" label="Deadline (optional)" hint="Read from the call when it states one." />
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pendingText="Reading the call..." className="button button-primary">
          Save and read the call
        </SubmitButton>
      </Form>
    </section>
  )
}
