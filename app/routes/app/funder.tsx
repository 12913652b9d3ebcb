import { getFormProps, getInputProps, getTextareaProps, type FieldMetadata } from '@conform-to/react'
import {
  type ActionFunctionArgs,
  data,
  Form,
  isRouteErrorResponse,
  Link,
  type LoaderFunctionArgs,
  type MetaFunction,
  type ShouldRevalidateFunction,
  useActionData,
  useLoaderData,
  useNavigation,
  useRouteError,
} from 'react-router'
import { type FormEvent, useEffect, useRef } from 'react'
import { RequestIdNote } from '~/components/request-id'
import { ErrorList, Field, SubmitButton, TextareaField } from '~/components/forms'
import { ActionToast, showToast } from '~/components/toaster'
import { requireUser } from '~/server/accounts/auth.server'
import { dataWithError, redirectWithSuccess } from '~/server/http/toast.server'
import { WorkRefusedError } from '~/server/platform/work-pool.server'
import { deleteFunder, getFunder, movePriority, prioritiesOf, questionsOf, termsOf, updateFunder } from '~/server/funders/funders.server'
import { formatDate } from '~/shared/dates'
import { describeAmounts } from '~/shared/locale'
import { useLocale } from '~/hooks/use-locale'
import { localeSettings } from '~/server/narratives/document-locale.server'
import {
  briefFromEditForm,
  FUNDER_LIMITS,
  FunderEditFormSchema,
  type PriorityMove,
  PriorityMoveFormSchema,
  prioritiesOfEditForm,
} from '~/shared/funder-schema'
import { parseForm } from '~/shared/form'
import { useSchemaForm } from '~/hooks/use-schema-form'

// One funder brief (docs/spec.md#funder-briefs): what was understood of the call is corrected in one plain form;
// each priority is moved up or down by a small form of its own, which saves the new order at once.

export const meta: MetaFunction<typeof loader> = ({ loaderData }) => [
  {
    title: loaderData
      ? `${loaderData.funder.name}: Funder Brief | Impact Narrative Studio`
      : 'Funder brief not found | Impact Narrative Studio',
  },
]

const LIST = '/funders'
const SAVED = 'Funder brief saved.'
const MOVE_UNREAD = 'That move could not be read. Reload the page and try again.'
const MOVE_CHANGED =
  'The priorities have changed since this page was shown (in another tab, or by a second press), so nothing was moved. Here they are as saved now.'
const UNSAVED_BEFORE_MOVE =
  'Save your changes first, or reload the page to drop them: moving a priority saves only the new order, and would lose them.'

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
      // The grants in the call's currency, or the person's where it names none (docs/decisions/043).
      amounts: describeAmounts(funder, localeSettings(request, user.locale)),
      /** As saved, in order: what the move buttons name and move. */
      priorities: prioritiesOf(funder).map((priority) => priority.text),
    },
    values: {
      name: funder.name,
      deadline: funder.deadline ?? '',
      amountMin: funder.amountMin?.toString() ?? '',
      amountMax: funder.amountMax?.toString() ?? '',
      currency: funder.currency ?? '',
      maxWords: funder.maxWords?.toString() ?? '',
      // Priorities are added in a box, one a line; the questions end with a blank row, to add one.
      priorities: prioritiesOf(funder).map((priority) => priority.text),
      newPriorities: '',
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
  if (intent === 'move') return moveAction(user, id, formData)
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
  const { skipped } = prioritiesOfEditForm(submission.value)
  return redirectWithSuccess(
    `${LIST}/${encodeURIComponent(id)}`,
    skipped.length ? `${SAVED} Already among its priorities, so not added again: ${quoted(skipped)}.` : SAVED,
  )
}

async function moveAction(user: Parameters<typeof movePriority>[0], id: string, formData: FormData) {
  const submission = parseForm(formData, PriorityMoveFormSchema)
  if (submission.status !== 'success') return dataWithError({ moved: false }, MOVE_UNREAD, { status: 400 })
  const move = submission.value
  const moved = await movePriority(user, id, move)
  if (moved.status === 'not-found') throw new Response('Funder brief not found', { status: 404 })
  if (moved.status === 'changed') return dataWithError({ moved: false }, MOVE_CHANGED, { status: 409 })
  if (moved.status === 'at-end')
    return dataWithError({ moved: false }, `“${move.priority}” is already ${move.direction === 'up' ? 'first' : 'last'}.`, { status: 400 })
  // To the moved priority's row: without JavaScript the browser scrolls to it, and Tab goes on from there.
  return redirectWithSuccess(
    `${LIST}/${encodeURIComponent(id)}#${priorityRowId(moved.to)}`,
    `Moved “${move.priority}” ${move.direction}: it is now priority ${moved.to + 1} of ${moved.of}.`,
  )
}

// React Router reloads no loaders after a 4xx; a refused move shows the priorities as they are saved now.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get('intent') === 'move' || defaultShouldRevalidate

const quoted = (texts: string[]) => texts.map((text) => `“${text}”`).join(', ')
const priorityRowId = (index: number) => `priority-${index + 1}`
const moveFormId = (index: number) => `move-priority-${index + 1}`
const moveButtonId = (index: number, direction: PriorityMove['direction']) => `move-priority-${index + 1}-${direction}`

export default function FunderPage() {
  const { funder, values } = useLoaderData<typeof loader>()
  const locale = useLocale()
  const reply = useActionData<typeof action>()
  const navigation = useNavigation()
  // Which of the page's forms is being sent: its own button says so, not the others.
  const sending = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null
  const moving = useRef<Moving | null>(null)
  // After a move, the moved priority keeps the focus: on the same button at its new place, or on the other there.
  useEffect(() => {
    const move = moving.current
    if (navigation.state !== 'idle' || !move) return
    moving.current = null
    if (funder.priorities[move.to] !== move.priority) return
    const other = move.direction === 'up' ? 'down' : 'up'
    ;(document.getElementById(moveButtonId(move.to, move.direction)) ?? document.getElementById(moveButtonId(move.to, other)))?.focus()
  }, [navigation.state, funder.priorities])
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
        saved={funder.priorities}
        amounts={funder.amounts}
        lastResult={reply && 'result' in reply ? reply.result : undefined}
        sending={sending}
        moving={moving}
      />
      <section className="section-block" aria-labelledby="call-title">
        <h2 id="call-title">The call</h2>
        <details className="inputs-disclosure">
          <summary>
            Show the call's text ({funder.source === 'pasted' ? 'pasted' : `read from ${funder.source}`} on{' '}
            {formatDate(funder.createdAt, 'UTC', locale)})
          </summary>
          <p className="call-text">{funder.callText}</p>
        </details>
      </section>
      <section className="section-block" aria-labelledby="delete-title">
        <h2 id="delete-title">Delete this brief</h2>
        <Form method="post">
          <input type="hidden" name="intent" value="delete" />
          <p>The narratives written for it keep the funder's name and what they answered. This cannot be undone.</p>
          <SubmitButton pendingText="Deleting..." pending={sending === 'delete'} className="button button-danger">
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
type Direction = PriorityMove['direction']
/** A move on its way: where the priority goes, to give it the focus there. */
type Moving = { to: number; direction: Direction; priority: string }

function UnderstoodForm({
  funderId,
  values,
  saved,
  amounts,
  lastResult,
  sending,
  moving,
}: {
  funderId: string
  values: Values
  /** The priorities as saved, which the move buttons name and move. */
  saved: string[]
  amounts: string | null
  lastResult: Parameters<typeof useSchemaForm>[1]['lastResult']
  sending: FormDataEntryValue | null | undefined
  moving: { current: Moving | null }
}) {
  const [form, fields] = useSchemaForm(FunderEditFormSchema, { id: `funder-${funderId}`, lastResult, defaultValue: values })
  const priorities = fields.priorities.getFieldList()
  const questions = fields.questionText.getFieldList()
  const maxWords = fields.questionMaxWords.getFieldList()
  const maxCharacters = fields.questionMaxCharacters.getFieldList()
  // A move saves only the order and reloads the form: never while it holds changes it would lose.
  const onMove = (event: FormEvent<HTMLFormElement>, index: number, priority: string) => {
    const edit = document.getElementById(form.id)
    if (lastResult || (edit instanceof HTMLFormElement && hasUnsavedChanges(edit))) {
      event.preventDefault()
      showToast({ type: 'error', message: UNSAVED_BEFORE_MOVE })
      return
    }
    // One move at a time: a second press before the first is shown would name a place that has changed.
    if (sending === 'move') {
      event.preventDefault()
      return
    }
    const direction = (event.nativeEvent as SubmitEvent).submitter?.getAttribute('value') === 'up' ? 'up' : 'down'
    moving.current = { to: direction === 'up' ? index - 1 : index + 1, direction, priority }
  }
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
        <fieldset className="form-section" id="priorities">
          <legend>
            <h3>Priorities, most important first</h3>
          </legend>
          {saved.length > 1 ? (
            <p className="field-hint">Move up and Move down save the new order at once: save other changes first.</p>
          ) : null}
          {priorities.length ? (
            <ol className="brief-rows">
              {priorities.map((priority, index) => (
                <li key={priority.key} id={priorityRowId(index)}>
                  <PriorityRow meta={priority} index={index} saved={saved} pending={sending === 'move'} />
                </li>
              ))}
            </ol>
          ) : (
            <p>No priorities yet: add them below.</p>
          )}
          <ErrorList id={fields.priorities.errorId} errors={fields.priorities.errors} />
          <TextareaField
            meta={fields.newPriorities}
            label="Add priorities"
            rows={4}
            hint={`One per line, most important first. They go after those above; one already there is not added twice. At most ${FUNDER_LIMITS.priorities} in all, of ${FUNDER_LIMITS.priority} characters each.`}
          />
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
        <SubmitButton pendingText="Saving..." pending={sending === 'save'} className="button button-primary">
          Save changes
        </SubmitButton>
      </Form>
      {/* Each priority's move buttons send its own form (by their form attribute), never this one's: Enter in a field still presses Save. */}
      {saved.map((priority, index) => (
        <Form
          key={index}
          method="post"
          id={moveFormId(index)}
          hidden
          preventScrollReset
          onSubmit={(event) => onMove(event, index, priority)}
        >
          <input type="hidden" name="intent" value="move" />
          <input type="hidden" name="index" value={index} />
          <input type="hidden" name="priority" value={priority} />
        </Form>
      ))}
    </section>
  )
}

/** Whether a form's fields hold anything but what the page gave them. */
function hasUnsavedChanges(form: HTMLFormElement) {
  return Array.from(form.elements).some((element) => {
    if (element instanceof HTMLTextAreaElement) return element.value !== element.defaultValue
    if (element instanceof HTMLSelectElement)
      return Array.from(element.options).some((option) => option.selected !== option.defaultSelected)
    if (!(element instanceof HTMLInputElement) || element.type === 'hidden' || element.type === 'file') return false
    if (element.type === 'checkbox' || element.type === 'radio') return element.checked !== element.defaultChecked
    return element.value !== element.defaultValue
  })
}

function PriorityRow({ meta, index, saved, pending }: { meta: AnyField; index: number; saved: string[]; pending: boolean }) {
  const props = getInputProps(meta, { type: 'text' })
  const priority = saved[index]
  return (
    <div className="brief-row">
      <div className="field">
        <label htmlFor={meta.id}>{`Priority ${index + 1}`}</label>
        <input {...props} key={props.key} maxLength={FUNDER_LIMITS.priority} />
        <ErrorList id={meta.errorId} errors={meta.errors} />
      </div>
      <RemoveBox name="removePriority" index={index} label={`Remove priority ${index + 1}`} />
      {priority !== undefined && saved.length > 1 ? (
        <div className="brief-row-moves">
          {index > 0 ? <MoveButton index={index} direction="up" priority={priority} pending={pending} /> : null}
          {index < saved.length - 1 ? <MoveButton index={index} direction="down" priority={priority} pending={pending} /> : null}
        </div>
      ) : null}
    </div>
  )
}

/** "Move up" in sight; named in full, "Move up: “Youth access”", which begins with what is seen (for speech input). */
function MoveButton({ index, direction, priority, pending }: { index: number; direction: Direction; priority: string; pending: boolean }) {
  return (
    <button
      type="submit"
      form={moveFormId(index)}
      name="direction"
      value={direction}
      id={moveButtonId(index, direction)}
      className="button button-secondary"
      aria-disabled={pending || undefined}
      aria-label={`Move ${direction}: “${priority}”`}
    >
      Move {direction}
    </button>
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
