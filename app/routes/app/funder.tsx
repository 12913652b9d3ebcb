import { getFormProps, getInputProps, getTextareaProps, type FieldMetadata } from '@conform-to/react'
import {
  type ActionFunctionArgs,
  data,
  Form,
  isRouteErrorResponse,
  Link,
  type LoaderFunctionArgs,
  type MetaFunction,
  useActionData,
  useLoaderData,
  useRouteError,
} from 'react-router'
import { RequestIdNote } from '~/components/request-id'
import { ErrorList, Field, SubmitButton, TextareaField } from '~/components/forms'
import { ActionToast } from '~/components/toaster'
import { requireUser } from '~/server/accounts/auth.server'
import { dataWithError, redirectWithSuccess } from '~/server/accounts/session.server'
import { WorkRefusedError } from '~/server/platform/work-pool.server'
import { deleteFunder, getFunder, prioritiesOf, questionsOf, termsOf, updateFunder } from '~/server/funders/funders.server'
import { formatDate } from '~/shared/dates'
import { briefFromEditForm, describeAmounts, FUNDER_LIMITS, FunderEditFormSchema } from '~/shared/funder-schema'
import { parseForm } from '~/shared/form'
import { useSchemaForm } from '~/hooks/use-schema-form'

// One funder brief (docs/spec.md#funder-briefs): what was understood of the call is corrected in one plain form.

export const meta: MetaFunction<typeof loader> = ({ loaderData }) => [
  {
    title: loaderData
      ? `${loaderData.funder.name}: Funder Brief | Impact Narrative Studio`
      : 'Funder brief not found | Impact Narrative Studio',
  },
]

const LIST = '/funders'

export async function loader({ request, params, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  const funder = await getFunder(user, params.id ?? '')
  if (!funder) throw new Response('Funder brief not found', { status: 404 })
  return {
    funder: {
      id: funder.id,
      name: funder.name,
      callText: funder.callText,
      source: funder.source,
      createdAt: funder.createdAt,
      updatedAt: funder.updatedAt,
      amounts: describeAmounts(funder),
    },
    values: {
      name: funder.name,
      deadline: funder.deadline ?? '',
      amountMin: funder.amountMin?.toString() ?? '',
      amountMax: funder.amountMax?.toString() ?? '',
      currency: funder.currency ?? '',
      maxWords: funder.maxWords?.toString() ?? '',
      // Each list ends with a blank row, to add one.
      priorities: [...prioritiesOf(funder).map((priority) => priority.text), ''],
      questionText: [...questionsOf(funder).map((question) => question.text), ''],
      questionMaxWords: [...questionsOf(funder).map((question) => question.maxWords?.toString() ?? ''), ''],
      questionMaxCharacters: [...questionsOf(funder).map((question) => question.maxCharacters?.toString() ?? ''), ''],
      terms: termsOf(funder).join('\n'),
    },
  }
}

export async function action({ request, params, url }: ActionFunctionArgs) {
  const user = await requireUser({ request, url })
  const id = params.id ?? ''
  // Another's brief is not found, whatever the form holds.
  if (!(await getFunder(user, id))) throw new Response('Funder brief not found', { status: 404 })
  const formData = await request.formData()
  const intent = formData.get('intent')
  if (intent === 'delete') {
    if (!(await deleteFunder(user, id))) throw new Response('Funder brief not found', { status: 404 })
    return redirectWithSuccess(LIST, 'Funder brief deleted. The narratives written for it keep its name.')
  }
  if (intent !== 'save') throw new Response('Unknown intent', { status: 400 })
  const submission = parseForm(formData, FunderEditFormSchema)
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    if (!(await updateFunder(user, id, briefFromEditForm(submission.value), request.signal)))
      throw new Response('Funder brief not found', { status: 404 })
  } catch (error) {
    if (!(error instanceof WorkRefusedError)) throw error
    return dataWithError({ result: submission.reply({ formErrors: [error.message] }) }, error.message, { status: error.status })
  }
  return redirectWithSuccess(`${LIST}/${encodeURIComponent(id)}`, 'Funder brief saved.')
}

export default function FunderPage() {
  const { funder, values } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  return (
    <div className="page">
      <ActionToast from={reply} />
      <header className="page-header">
        <h1>Funder Brief</h1>
        <p className="page-subtitle">{funder.name}</p>
      </header>
      <p className="back-link actions">
        <Link to={LIST} className="button button-secondary">
          Back to funder briefs
        </Link>
        <Link to={`/dashboard?funder=${encodeURIComponent(funder.id)}`} className="button button-primary">
          Write a narrative for this funder
        </Link>
        <Link to={`/admin/narratives?funder=${encodeURIComponent(funder.id)}`} className="button button-secondary">
          Narratives written for it
        </Link>
      </p>
      {/* Saved, the form starts again from what was saved: keyed by when that was, to the millisecond (two saves often share a second). */}
      <UnderstoodForm
        key={funder.updatedAt.getTime()}
        funderId={funder.id}
        values={values}
        amounts={funder.amounts}
        lastResult={reply?.result}
      />
      <section className="section-block" aria-labelledby="call-title">
        <h2 id="call-title">The call</h2>
        <details className="inputs-disclosure">
          <summary>
            Show the call's text ({funder.source === 'pasted' ? 'pasted' : `read from ${funder.source}`} on{' '}
            {formatDate(funder.createdAt, 'UTC')})
          </summary>
          <p className="call-text">{funder.callText}</p>
        </details>
      </section>
      <section className="section-block" aria-labelledby="delete-title">
        <h2 id="delete-title">Delete this brief</h2>
        <Form method="post">
          <input type="hidden" name="intent" value="delete" />
          <p>The narratives written for it keep the funder's name and what they answered. This cannot be undone.</p>
          <SubmitButton pendingText="Deleting..." className="button button-danger">
            Delete brief
          </SubmitButton>
        </Form>
      </section>
    </div>
  )
}

type Values = Awaited<ReturnType<typeof loader>>['values']
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>

function UnderstoodForm({
  funderId,
  values,
  amounts,
  lastResult,
}: {
  funderId: string
  values: Values
  amounts: string | null
  lastResult: Parameters<typeof useSchemaForm>[1]['lastResult']
}) {
  const [form, fields] = useSchemaForm(FunderEditFormSchema, { id: `funder-${funderId}`, lastResult, defaultValue: values })
  const priorities = fields.priorities.getFieldList()
  const questions = fields.questionText.getFieldList()
  const maxWords = fields.questionMaxWords.getFieldList()
  const maxCharacters = fields.questionMaxCharacters.getFieldList()
  return (
    <section className="section-block" aria-labelledby="understood-title">
      <h2 id="understood-title">What we understood of the call</h2>
      <p className="field-hint">
        Read from the call; correct anything that is wrong. A narrative written for this funder answers these priorities in this order,
        keeps to these limits and names {values.name}
        {amounts ? ` (grants ${amounts})` : ''} in its ask.
      </p>
      {/* Multipart: its 30,000 characters in a non-Latin script are past the URL-encoded cap (docs/decisions/025). */}
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="save" />
        <Field meta={fields.name} label="Funder's name" />
        <div className="field-row">
          <Field meta={fields.deadline} type="date" label="Deadline" />
          <Field
            meta={fields.maxWords}
            type="number"
            label="Word limit of the narrative"
            hint="Empty: no limit but the usual 300-400 words."
          />
        </div>
        <div className="field-row">
          <Field meta={fields.amountMin} type="number" label="Smallest grant" />
          <Field meta={fields.amountMax} type="number" label="Largest grant" />
          <Field meta={fields.currency} label="Currency" hint="As the call writes it: $, £, EUR." />
        </div>
        <fieldset className="form-section">
          <legend>
            <h3>Priorities, most important first</h3>
          </legend>
          <ol className="brief-rows">
            {priorities.map((priority, index) => (
              <li key={priority.key}>
                <PriorityRow meta={priority} index={index} last={index === priorities.length - 1} />
              </li>
            ))}
          </ol>
          <ErrorList id={fields.priorities.errorId} errors={fields.priorities.errors} />
        </fieldset>
        <fieldset className="form-section">
          <legend>
            <h3>The call's questions</h3>
          </legend>
          <p className="field-hint">Each can be answered on its own, within its limit, from a narrative's page.</p>
          <ol className="brief-rows">
            {questions.map((question, index) => (
              <li key={question.key}>
                <QuestionRow
                  text={question}
                  maxWords={maxWords[index]}
                  maxCharacters={maxCharacters[index]}
                  index={index}
                  last={index === questions.length - 1}
                />
              </li>
            ))}
          </ol>
          <ErrorList id={fields.questionText.errorId} errors={fields.questionText.errors} />
        </fieldset>
        <TextareaField
          meta={fields.terms}
          label="The funder's terms"
          rows={5}
          hint={`One a line, at most ${FUNDER_LIMITS.terms}: the funder's own words for things, used only where your inputs support them.`}
        />
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pendingText="Saving..." className="button button-primary">
          Save changes
        </SubmitButton>
      </Form>
    </section>
  )
}

function PriorityRow({ meta, index, last }: { meta: AnyField; index: number; last: boolean }) {
  const props = getInputProps(meta, { type: 'text' })
  return (
    <div className="brief-row">
      <div className="field">
        <label htmlFor={meta.id}>{last ? 'Add a priority' : `Priority ${index + 1}`}</label>
        <input {...props} key={props.key} maxLength={FUNDER_LIMITS.priority} />
        <ErrorList id={meta.errorId} errors={meta.errors} />
      </div>
      {last ? null : <RemoveBox name="removePriority" index={index} label={`Remove priority ${index + 1}`} />}
    </div>
  )
}

function QuestionRow({
  text,
  maxWords,
  maxCharacters,
  index,
  last,
}: {
  text: AnyField
  maxWords: AnyField
  maxCharacters: AnyField
  index: number
  last: boolean
}) {
  const props = getTextareaProps(text)
  const name = last ? 'New question' : `Question ${index + 1}`
  return (
    <div className="brief-row">
      <div className="field">
        <label htmlFor={text.id}>{last ? 'Add a question' : name}</label>
        <textarea {...props} key={props.key} rows={2} />
        <ErrorList id={text.errorId} errors={text.errors} />
      </div>
      <div className="field-row">
        <LimitInput meta={maxWords} label={`${name}: most words`} />
        <LimitInput meta={maxCharacters} label={`${name}: most characters`} />
      </div>
      {last ? null : <RemoveBox name="removeQuestion" index={index} label={`Remove question ${index + 1}`} />}
    </div>
  )
}

function LimitInput({ meta, label }: { meta: AnyField; label: string }) {
  const props = getInputProps(meta, { type: 'number' })
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <input {...props} key={props.key} min={1} />
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

function RemoveBox({ name, index, label }: { name: string; index: number; label: string }) {
  const id = `${name}-${index}`
  return (
    <div className="field field-checkbox">
      <input type="checkbox" id={id} name={name} value={index} />
      <label htmlFor={id}>{label}</label>
    </div>
  )
}

export function ErrorBoundary() {
  const error = useRouteError()
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <div className="page">
      <div className="card narrow error-page" role="alert">
        <h1>{notFound ? 'Funder brief not found' : 'Failed to load the funder brief'}</h1>
        <RequestIdNote />
        <p>
          <Link to={LIST} className="button button-secondary">
            Back to funder briefs
          </Link>
        </p>
      </div>
    </div>
  )
}
