import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { useState } from 'react'
import { Form, Link } from 'react-router'
import { WordCount } from '~/components/claimed-text'
import { ErrorList, SubmitButton, TextareaField } from '~/components/forms'
import { useSchemaForm } from '~/hooks/use-schema-form'
import { NARRATIVE_WORDS, NarrativeTextSchema } from '~/shared/narrative-text'

/** The narrative's text in a box, saved as a new version; the word count follows what is typed. */
export function EditNarrativeForm({
  narrative,
  basePath,
  lastResult,
}: {
  narrative: { id: string; generatedNarrative: string }
  basePath: string
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const [draft, setDraft] = useState(narrative.generatedNarrative)
  const [form, fields] = useSchemaForm(NarrativeTextSchema, {
    id: `narrative-text-${narrative.id}`,
    lastResult,
    defaultValue: { generatedNarrative: narrative.generatedNarrative },
  })
  return (
    // Multipart: 20,000 characters of a non-Latin script are past the URL-encoded cap (docs/decisions/025).
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="save" />
      <TextareaField
        meta={fields.generatedNarrative}
        label="Generated Narrative"
        rows={16}
        hint="You can edit the narrative text directly"
        textareaProps={{ autoFocus: true, onInput: (event) => setDraft(event.currentTarget.value) }}
      />
      <p className="edit-count">
        <WordCount text={draft} min={NARRATIVE_WORDS.min} max={NARRATIVE_WORDS.max} />
      </p>
      <ErrorList id={form.errorId} errors={form.errors} />
      <div className="actions">
        <SubmitButton pendingText="Saving..." className="button button-primary">
          Save Changes
        </SubmitButton>
        <Link to={`${basePath}#narrative`} className="button button-secondary" preventScrollReset>
          Cancel
        </Link>
      </div>
    </Form>
  )
}
