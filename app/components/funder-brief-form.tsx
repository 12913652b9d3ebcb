import { getFormProps, getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from '@conform-to/react'
import type { FormEvent } from 'react'
import { Form } from 'react-router'
import { ErrorList, Field, SubmitButton, TextareaField } from '~/components/forms'
import { showToast } from '~/components/toaster'
import { useSchemaForm } from '~/hooks/use-schema-form'
import { FUNDER_LIMITS, FunderEditFormSchema, type PriorityMove } from '~/shared/funder-schema'

// A funder brief's form (docs/spec.md#funder-briefs): what was understood of the call, and each priority's move buttons.

const UNSAVED_BEFORE_MOVE =
  'Save your changes first, or reload the page to drop them: moving a priority saves only the new order, and would lose them.'

export const priorityRowId = (index: number) => `priority-${index + 1}`
const moveFormId = (index: number) => `move-priority-${index + 1}`
export const moveButtonId = (index: number, direction: PriorityMove['direction']) => `move-priority-${index + 1}-${direction}`

/** The form's values as the page's loader gives them: the questions end with a blank row, to add one. */
export type FunderFormValues = {
  name: string
  deadline: string
  amountMin: string
  amountMax: string
  currency: string
  maxWords: string
  priorities: string[]
  newPriorities: string
  questionText: string[]
  questionMaxWords: string[]
  questionMaxCharacters: string[]
  terms: string
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>
type Direction = PriorityMove['direction']
/** A move on its way: where the priority goes, to give it the focus there. */
export type Moving = { to: number; direction: Direction; priority: string }

/** What was understood of the call, corrected in one plain form; each priority moves by a small form of its own. */
export function UnderstoodForm({
  funderId,
  values,
  saved,
  amounts,
  lastResult,
  sending,
  moving,
}: {
  funderId: string
  values: FunderFormValues
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
  const spaces = fields.questionSpaces.getFieldList()
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
                  spaces={spaces[index]}
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
  spaces,
  index,
  last,
}: {
  text: AnyField
  maxWords: AnyField
  maxCharacters: AnyField
  spaces: AnyField
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
        <SpacesSelect meta={spaces} label={`${name}: characters counted`} />
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

function SpacesSelect({ meta, label }: { meta: AnyField; label: string }) {
  const props = getSelectProps(meta)
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <select {...props} key={props.key}>
        <option value="with">With spaces</option>
        <option value="without">Without spaces</option>
      </select>
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
