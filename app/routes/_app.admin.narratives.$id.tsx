import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint } from '@conform-to/zod'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from 'react-router'
import { Form, Link, useActionData, useLoaderData, useRevalidator, useSearchParams } from 'react-router'
import { useEffect, type ReactNode } from 'react'
import { DownloadButton } from '~/components/download-button'
import { ErrorList, SubmitButton, TextareaField } from '~/components/forms'
import { engineLabel } from '~/components/narrative-output'
import { requireUser } from '~/server/accounts/auth.server'
import { formatDate, formatDateTime, useLocalTimeZone } from '~/shared/dates'
import { parseForm } from '~/shared/form'
import { NarrativeTextSchema } from '~/shared/narrative-text'
import { getNarrative, updateNarrativeText } from '~/server/narratives/narratives.server'
import { dataWithError, redirectWithSuccess } from '~/server/accounts/session.server'
import { toneLabel } from '~/shared/tones'

export const meta: MetaFunction<typeof loader> = ({ loaderData: data }) => [
  { title: data ? `${data.narrative.company}: Narrative Details | Impact Narrative Studio` : 'Narrative not found | Impact Narrative Studio' },
]

const LIST_PATH = '/admin/narratives'
const UPDATED = 'Narrative updated successfully!'
const UPDATE_FAILED = 'Failed to update narrative. Please try again.'
const NOT_PROVIDED = 'Not provided'

export async function loader({ request, params, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  const narrative = await getNarrative({ id: params.id ?? '', viewer: user })
  if (!narrative) throw new Response('Not found', { status: 404 })
  // Only what the page shows (no owner id, no quota bookkeeping).
  const { id, company, status, engine, generatedNarrative, updatedAt, user: owner } = narrative
  return {
    narrative: {
      id,
      company,
      status,
      engine,
      generatedNarrative,
      updatedAt,
      tone: toneLabel(narrative.tone),
      ownerName: `${owner.firstName} ${owner.lastName}`.trim(),
      ownerEmail: owner.email,
      missionStatement: narrative.missionStatement,
      targetAudience: narrative.targetAudience,
      geographicFocus: narrative.geographicFocus,
      keyPrograms: narrative.keyPrograms,
      impactMetrics: narrative.impactMetrics,
    },
  }
}

export async function action({ request, params, url }: ActionFunctionArgs) {
  const user = await requireUser({ request, url })
  const id = params.id ?? ''
  const formData = await request.formData()
  if (formData.get('intent') !== 'save') throw new Response('Unknown intent', { status: 400 })
  const submission = parseForm(formData, NarrativeTextSchema)
  if (submission.status !== 'success') return dataWithError(submission.reply(), UPDATE_FAILED, { status: 400 })
  const updated = await updateNarrativeText({ id, viewer: user, text: submission.value.generatedNarrative })
  if (!updated) return dataWithError(submission.reply({ formErrors: [UPDATE_FAILED] }), UPDATE_FAILED, { status: 404 })
  return redirectWithSuccess(`${LIST_PATH}/${encodeURIComponent(id)}`, UPDATED)
}

type Narrative = Awaited<ReturnType<typeof loader>>['narrative']

export default function NarrativeDetailPage() {
  const { narrative } = useLoaderData<typeof loader>()
  const [searchParams] = useSearchParams()
  const editable = narrative.status !== 'generating'
  const editing = editable && searchParams.get('edit') === '1'
  return (
    <div className="page">
      <header className="page-header">
        <h1>Narrative Details</h1>
        <p className="page-subtitle">{narrative.company}</p>
      </header>
      {/* Left-aligned under the title: the top-right corner is where toasts appear. */}
      <div className="actions">
        <Link to={LIST_PATH} className="button button-secondary">
          Back to List
        </Link>
        {editable ? (
          <Link to={`${LIST_PATH}/${encodeURIComponent(narrative.id)}${editing ? '' : '?edit=1'}`} className="button button-primary" preventScrollReset>
            {editing ? 'Cancel' : 'Edit Narrative'}
          </Link>
        ) : null}
      </div>
      <div className="card">
        <CompanyInformation narrative={narrative} />
        <InputSections narrative={narrative} />
        <section className="section-block" aria-labelledby="narrative-title">
          <NarrativeHeading narrative={narrative} />
          {/* Plain text in a pre-wrap block (.section-block p): paragraphs show as written, never as HTML. */}
          {editing ? <EditNarrativeForm narrative={narrative} /> : <p>{narrative.generatedNarrative || NOT_PROVIDED}</p>}
          <div className="actions">{editable ? <DownloadButton narrativeId={narrative.id} label="Download Narrative" /> : null}</div>
        </section>
        <MetaFooter narrative={narrative} />
      </div>
    </div>
  )
}

function CompanyInformation({ narrative }: { narrative: Narrative }) {
  const timeZone = useLocalTimeZone()
  return (
    <section aria-labelledby="company-title">
      <h2 id="company-title">Company Information</h2>
      <dl className="detail-grid">
        <DetailItem term="Name">{narrative.ownerName || NOT_PROVIDED}</DetailItem>
        <DetailItem term="Email">{narrative.ownerEmail}</DetailItem>
        <DetailItem term="Company">{narrative.company}</DetailItem>
        <DetailItem term="Last Updated">{formatDate(narrative.updatedAt, timeZone)}</DetailItem>
      </dl>
    </section>
  )
}

function DetailItem({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  )
}

function InputSections({ narrative }: { narrative: Narrative }) {
  const sections: [string, string][] = [
    ['Mission Statement', narrative.missionStatement],
    ['Target Population', narrative.targetAudience],
    ['Geographic Focus', narrative.geographicFocus],
    ['Key Activities', narrative.keyPrograms],
    ['Key Achievements', narrative.impactMetrics],
  ]
  return (
    <div>
      {sections.map(([title, text]) => (
        <div key={title} className="section-block">
          <h3>{title}</h3>
          <p>{text || NOT_PROVIDED}</p>
        </div>
      ))}
    </div>
  )
}

const STATUS_LABELS: Record<string, string> = { stopped: 'Stopped', failed: 'Failed', generating: 'Generating' }

function NarrativeHeading({ narrative }: { narrative: Narrative }) {
  return (
    <div className="output-header">
      <h2 id="narrative-title">Generated Narrative</h2>
      {/* 'manual': the text came with the record through the token API; no model wrote it. */}
      <span className="engine-label">{narrative.engine === 'manual' ? 'Saved through the API' : engineLabel(narrative.engine)}</span>
      {narrative.status === 'complete' ? null : (
        <span className={`status-badge status-${narrative.status}`}>{STATUS_LABELS[narrative.status] ?? narrative.status}</span>
      )}
    </div>
  )
}

function EditNarrativeForm({ narrative }: { narrative: Narrative }) {
  const lastResult = useActionData<typeof action>()
  useToastAfterFailure(lastResult)
  const [form, fields] = useForm({
    id: `narrative-text-${narrative.id}`,
    lastResult,
    defaultValue: { generatedNarrative: narrative.generatedNarrative },
    constraint: getZodConstraint(NarrativeTextSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, NarrativeTextSchema),
  })
  return (
    <Form method="post" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="save" />
      <TextareaField
        meta={fields.generatedNarrative}
        label="Generated Narrative"
        rows={16}
        hint="You can edit the narrative text directly"
      />
      <ErrorList id={form.errorId} errors={form.errors} />
      <SubmitButton pendingText="Saving..." className="button button-primary">
        Save Changes
      </SubmitButton>
    </Form>
  )
}

/** A failed save (4xx) does not revalidate the loaders, so the flash toast would wait: fetch it now. */
function useToastAfterFailure(result: unknown) {
  const revalidator = useRevalidator()
  useEffect(() => {
    if (result) revalidator.revalidate()
  }, [result]) // eslint-disable-line react-hooks/exhaustive-deps
}

function MetaFooter({ narrative }: { narrative: Narrative }) {
  const timeZone = useLocalTimeZone()
  return (
    <footer className="meta-footer">
      <p>ID: {narrative.id}</p>
      <p>Tone: {narrative.tone}</p>
      <p>Last updated: {formatDateTime(narrative.updatedAt, timeZone)}</p>
    </footer>
  )
}

export { NarrativeErrorBoundary as ErrorBoundary } from '~/components/narrative-error'
