import { fullName } from '~/shared/user-summary'
import { getFormProps } from '@conform-to/react'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from 'react-router'
import { Form, Link, replace, useActionData, useLoaderData, useRevalidator, useSearchParams } from 'react-router'
import { useCallback, useState, type ReactNode } from 'react'
import { ClaimedText, ClaimsSummary, WordCount } from '~/components/claimed-text'
import { VariantPanel } from '~/components/variant-panel'
import { ActionToast } from '~/components/toaster'
import { contactsOf } from '~/shared/contacts'
import { VersionHistory } from '~/components/version-history'
import { useGeneration, type StreamStatus } from '~/hooks/use-generation'
import { NARRATIVE_WORDS } from '~/shared/narrative-text'
import { questionLimit, VariantRequestSchema } from '~/shared/variant-limits'
import { AlignmentPanel } from '~/components/alignment-panel'
import { QuestionAnswers } from '~/components/question-answers'
import { coverageOf, parseBrief } from '~/server/narratives/alignment.server'
import { startVariant, VariantSourceError, waitForGeneration } from '~/server/generation/job/jobs.server'
import { getRemainingQuota } from '~/server/usage/quota.server'
import {
  claimsOfVariant,
  getNarrativeWorkbench,
  getVariant,
  getVariantOutcome,
  currentVariantTest,
  limitOfVariant,
} from '~/server/narratives/variants.server'
import { getVersion, restoreVersion } from '~/server/narratives/versions.server'
import { compareWordsInPool } from '~/server/narratives/word-diff.server'
import { WorkRefusedError } from '~/server/platform/work-pool.server'
import { DownloadButton, narrativeDocxPath, narrativePdfPath } from '~/components/download-button'
import { CopyButton } from '~/components/copy-button'
import { ErrorList, SubmitButton, TextareaField } from '~/components/forms'
import { engineLabel } from '~/shared/engines'
import { requireUser } from '~/server/accounts/auth.server'
import { formatDate, formatDateTime } from '~/shared/dates'
import { useLocalTimeZone } from '~/hooks/use-local-time-zone'
import { useLocale } from '~/hooks/use-locale'
import { describeAmountRequested, spell } from '~/shared/locale'
import { parseForm } from '~/shared/form'
import { NarrativeTextSchema } from '~/shared/narrative-text'
import { alignmentOfNarrative, claimsOfNarrative, updateNarrativeText } from '~/server/narratives/narratives.server'
import { leftOut } from '~/server/narratives/coverage.server'
import { CoverageNote } from '~/components/coverage-note'
import { dataWithError, redirectWithError, redirectWithSuccess } from '~/server/http/toast.server'
import { toneLabel } from '~/shared/tones'
import { RateLimitError } from '~/server/edge/rate-limit.server'
import { rateLimitedPageHeaders, unlessRateLimited } from '~/server/http/rate-limited-page.server'
import { QuotaError } from '~/server/usage/contract.server'
import { useSchemaForm } from '~/hooks/use-schema-form'

export const meta: MetaFunction<typeof loader> = ({ loaderData: data }) => [
  {
    title: data
      ? `${data.narrative.company}: Narrative Details | Impact Narrative Studio`
      : 'Narrative not found | Impact Narrative Studio',
  },
]

const LIST_PATH = '/admin/narratives'

export const headers = rateLimitedPageHeaders

export { revalidateWhenGone as shouldRevalidate } from '~/shared/revalidate'
const UPDATED = 'Narrative updated successfully!'
const UPDATE_FAILED = 'Failed to update narrative. Please try again.'
const RESTORED = 'Version restored.'
const RESTORE_FAILED = 'That version could not be restored. Please try again.'
const VARIANT_INVALID = 'Please choose a format and a limit.'
const VARIANT_WRITTEN = 'Variant written.'
const VARIANT_FAILED = "The variant could not be written, and today's narrative was given back. Try again or choose a higher limit."
const NOT_PROVIDED = 'Not provided'

export async function loader({ request, params, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  const id = params.id ?? ''
  const narrative = await getNarrativeWorkbench({ id, viewer: user })
  if (!narrative) throw new Response('Not found', { status: 404 })
  const { versions } = narrative
  const owned = narrative.userId === user.id
  const versionId = url.searchParams.get('version')
  const variantId = url.searchParams.get('variant')
  const [selected, liveVariant, remaining] = await Promise.all([
    versionId ? getVersion({ id, versionId, viewer: user }) : null,
    owned && variantId ? getVariant({ id: variantId, viewer: user }) : null,
    owned ? getRemainingQuota(user.id) : 0,
  ])
  // Only what the page shows (no owner id, no quota bookkeeping).
  const { company, status, engine, generatedNarrative, updatedAt, user: owner } = narrative
  const brief = parseBrief(narrative.brief)
  const alignment = status === 'generating' ? [] : alignmentOfNarrative(narrative)
  const diff = selected ? await compareWordsInPool(selected.text, generatedNarrative, request.signal) : null
  const isCurrent = currentVariantTest(generatedNarrative)
  return {
    funder: narrative.funderName
      ? {
          id: narrative.funderId,
          name: narrative.funderName,
          amountRequested: narrative.amountRequested,
          deadline: narrative.deadline,
          maxWords: brief?.maxWords ?? null,
          alignment,
          coverage: coverageOf(alignment),
          questions: (brief?.questions ?? []).map((question) => ({ text: question.text, limit: questionLimit(question) })),
        }
      : null,
    narrative: {
      id,
      company,
      status,
      engine,
      generatedNarrative,
      updatedAt,
      claims: claimsOfNarrative(narrative),
      leftOut: narrative.status === 'complete' ? leftOut(narrative.generatedNarrative, narrative) : [],
      tone: toneLabel(narrative.tone),
      ownerName: fullName(owner),
      ownerEmail: owner.email,
      missionStatement: narrative.missionStatement,
      targetAudience: narrative.targetAudience,
      geographicFocus: narrative.geographicFocus,
      keyPrograms: narrative.keyPrograms,
      impactMetrics: narrative.impactMetrics,
      successStory: narrative.successStory,
      website: narrative.website,
      contacts: contactsOf(narrative),
    },
    versions: versions.map(({ id, source, createdAt }) => ({ id, source, createdAt })),
    selectedVersion: selected && {
      ...selected,
      current: selected.id === versions[0]?.id,
      diff,
    },
    // Variants are written on the owner's quota: an administrator reading someone else's narrative sees them, but writes none.
    variants: narrative.variants.map((variant) => ({
      id: variant.id,
      format: variant.format,
      question: variant.question,
      limit: limitOfVariant(variant),
      text: variant.text,
      createdAt: variant.createdAt,
      claims: claimsOfVariant(variant, narrative),
      current: isCurrent(variant),
    })),
    liveVariant: liveVariant && {
      id: liveVariant.id,
      status: liveVariant.status as StreamStatus,
      text: liveVariant.text,
      limit: limitOfVariant(liveVariant),
    },
    canWriteVariants: owned,
    remaining,
  }
}

export async function action({ request, params, url }: ActionFunctionArgs) {
  const user = await requireUser({ request, url })
  const id = params.id ?? ''
  const formData = await request.formData()
  const intent = formData.get('intent')
  if (intent === 'save') return saveText(id, user, formData, request.signal)
  if (intent === 'restore') return restore(id, user, String(formData.get('versionId') ?? ''), request.signal)
  if (intent === 'variant') return writeVariant(id, user, formData)
  throw new Response('Unknown intent', { status: 400 })
}

type Viewer = Awaited<ReturnType<typeof requireUser>>
const detailPath = (id: string) => `${LIST_PATH}/${encodeURIComponent(id)}`

async function saveText(id: string, user: Viewer, formData: FormData, signal: AbortSignal) {
  const submission = parseForm(formData, NarrativeTextSchema)
  if (submission.status !== 'success') return dataWithError({ intent: 'save', result: submission.reply() }, UPDATE_FAILED, { status: 400 })
  const reply = (message: string) => ({ intent: 'save', result: submission.reply({ formErrors: [message] }) })
  const save = () => updateNarrativeText({ id, viewer: user, text: submission.value.generatedNarrative, signal })
  const { value: updated, refused } = await unlessRateLimited(save, reply).catch((error: unknown) => {
    if (!(error instanceof WorkRefusedError)) throw error
    return { value: null, refused: dataWithError(reply(error.message), error.message, { status: error.status }) }
  })
  if (refused) return refused
  if (!updated) return dataWithError(reply(UPDATE_FAILED), UPDATE_FAILED, { status: 404 })
  return redirectWithSuccess(`${detailPath(id)}#narrative`, UPDATED)
}

async function restore(id: string, user: Viewer, versionId: string, signal: AbortSignal) {
  const back = `${detailPath(id)}#versions`
  try {
    if (!(await restoreVersion({ id, versionId, viewer: user, signal }))) throw await redirectWithError(back, RESTORE_FAILED)
  } catch (error) {
    if (error instanceof RateLimitError || error instanceof WorkRefusedError) throw await redirectWithError(back, error.message)
    throw error
  }
  return redirectWithSuccess(back, RESTORED)
}

/**
 * With JavaScript the page follows the variant's event stream (the URL names it); without, the
 * request waits for the whole variant, then shows it.
 */
async function writeVariant(id: string, user: Viewer, formData: FormData) {
  const submission = parseForm(formData, VariantRequestSchema)
  if (submission.status !== 'success')
    return dataWithError({ intent: 'variant', result: submission.reply() }, VARIANT_INVALID, { status: 400 })
  const streaming = formData.get('mode') === 'stream'
  try {
    const variant = await startVariant(user.id, id, submission.value)
    const page = `${detailPath(id)}?variant=${encodeURIComponent(variant.id)}#variants`
    if (streaming) return replace(page)
    await waitForGeneration(variant.id)
    const outcome = await getVariantOutcome(variant.id)
    return outcome?.status === 'complete' ? redirectWithSuccess(page, VARIANT_WRITTEN) : redirectWithError(page, VARIANT_FAILED)
  } catch (error) {
    if (error instanceof VariantSourceError) throw new Response('Not found', { status: 404 })
    if (!(error instanceof QuotaError)) throw error
    if (!streaming) throw await redirectWithError(`${detailPath(id)}#variants`, error.message)
    return dataWithError({ intent: 'variant', result: submission.reply({ formErrors: [error.message] }) }, error.message, {
      status: error.status,
    })
  }
}

type Narrative = Awaited<ReturnType<typeof loader>>['narrative']

export default function NarrativeDetailPage() {
  const { narrative, versions, selectedVersion, variants, liveVariant, canWriteVariants, remaining, funder } =
    useLoaderData<typeof loader>()
  const [searchParams] = useSearchParams()
  const editable = narrative.status !== 'generating'
  const editing = editable && searchParams.get('edit') === '1'
  const basePath = `${LIST_PATH}/${encodeURIComponent(narrative.id)}`
  const actionData = useActionData<typeof action>()
  return (
    <div className="page">
      <ActionToast from={actionData} />
      <header className="page-header">
        <h1>Narrative Details</h1>
        <p className="page-subtitle">{narrative.company}</p>
        {funder ? <FunderLine funder={funder} /> : null}
      </header>
      <p className="back-link">
        <Link to={LIST_PATH} className="button button-secondary">
          Back to List
        </Link>
      </p>
      <div className="card">
        <section className="section-block" aria-labelledby="narrative-title" id="narrative" tabIndex={-1}>
          <NarrativeHeading narrative={narrative} maxWords={funder?.maxWords ?? null} />
          {editing ? (
            <EditNarrativeForm narrative={narrative} basePath={basePath} />
          ) : (
            <>
              <ClaimsSummary claims={narrative.claims} idPrefix="claim" />
              <CoverageNote
                text={narrative.generatedNarrative}
                leftOut={narrative.leftOut}
                engine={narrative.engine}
                maxWords={funder?.maxWords}
              />
              {/* Plain text in a pre-wrap block (.section-block p): paragraphs show as written, never as HTML. */}
              <p>
                {narrative.generatedNarrative ? (
                  <ClaimedText text={narrative.generatedNarrative} claims={narrative.claims} idPrefix="claim" />
                ) : (
                  NOT_PROVIDED
                )}
              </p>
              <div className="actions">
                {editable ? (
                  <>
                    <Link to={`${basePath}?edit=1#narrative`} className="button button-primary" preventScrollReset>
                      Edit Narrative
                    </Link>
                    <DownloadButton href={narrativeDocxPath(narrative.id)} label="Download Narrative" />
                    <DownloadButton href={narrativePdfPath(narrative.id)} label="Download as PDF" />
                    {narrative.generatedNarrative ? <CopyButton text={narrative.generatedNarrative} /> : null}
                  </>
                ) : null}
              </div>
            </>
          )}
        </section>
        {funder && editable ? <AlignmentPanel funder={funder.name} alignment={funder.alignment} coverage={funder.coverage} /> : null}
        {editable ? (
          <VersionHistory
            basePath={basePath}
            versions={versions}
            selected={selectedVersion ?? null}
            currentText={narrative.generatedNarrative}
          />
        ) : null}
        {canWriteVariants && editable && narrative.generatedNarrative ? (
          <Variants basePath={basePath} variants={variants} liveVariant={liveVariant} remaining={remaining} />
        ) : null}
        {canWriteVariants && editable && narrative.generatedNarrative && funder?.questions.length ? (
          <QuestionAnswers
            basePath={basePath}
            funder={funder.name}
            questions={funder.questions}
            remaining={remaining}
            writing={liveVariant?.status === 'generating'}
          />
        ) : null}
        <OrganisationInputs narrative={narrative} />
        <MetaFooter narrative={narrative} />
      </div>
    </div>
  )
}

type LoaderData = Awaited<ReturnType<typeof loader>>

/** The variant panel, following the variant the URL names while it is written. */
function Variants({
  basePath,
  variants,
  liveVariant,
  remaining,
}: Pick<LoaderData, 'variants' | 'liveVariant' | 'remaining'> & { basePath: string }) {
  const revalidator = useRevalidator()
  const actionData = useActionData<typeof action>()
  // The written variant joins the list, and a failure's refund shows in what is left.
  const onFinish = useCallback(() => revalidator.revalidate(), [revalidator])
  const live = useGeneration(liveVariant, { onFinish, streamPath: '/resources/variants' })
  return (
    <VariantPanel
      basePath={basePath}
      variants={variants}
      live={liveVariant ? { ...live, id: liveVariant.id } : null}
      liveLimit={liveVariant?.limit ?? null}
      remaining={remaining}
      lastResult={actionData?.intent === 'variant' ? actionData.result : undefined}
    />
  )
}

/** What the narrative was written from, folded away under it; open without JavaScript too. */
function OrganisationInputs({ narrative }: { narrative: Narrative }) {
  const { variety } = useLocale()
  return (
    <section className="section-block" aria-labelledby="inputs-title">
      <h2 id="inputs-title">{spell("The organization's inputs", variety)}</h2>
      {/* The heading stays outside <summary>, whose content some screen readers do not list as headings. */}
      <details className="inputs-disclosure">
        <summary>Show what it was written from</summary>
        <CompanyInformation narrative={narrative} />
        <InputSections narrative={narrative} />
      </details>
    </section>
  )
}

function CompanyInformation({ narrative }: { narrative: Narrative }) {
  const timeZone = useLocalTimeZone()
  const locale = useLocale()
  return (
    <section aria-labelledby="company-title">
      <h3 id="company-title">Company Information</h3>
      <dl className="detail-grid">
        <DetailItem term="Name">{narrative.ownerName || NOT_PROVIDED}</DetailItem>
        <DetailItem term="Email">{narrative.ownerEmail}</DetailItem>
        <DetailItem term="Company">{narrative.company}</DetailItem>
        <DetailItem term="Last Updated">{formatDate(narrative.updatedAt, timeZone, locale)}</DetailItem>
        <DetailItem term="Website">{narrative.website || NOT_PROVIDED}</DetailItem>
        {narrative.contacts.map((contact) => (
          <DetailItem key={contact.designation} term={`${contact.designation} Contact`}>
            {contact.lines.map((line) => (
              <span key={line} className="contact-line">
                {line}
              </span>
            ))}
          </DetailItem>
        ))}
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
  const { variety } = useLocale()
  // The titles of docs/spec.md#narrative-page, each with the form field it was entered in, where the names differ.
  const sections: [string, string | null, string][] = [
    ['Mission Statement', null, narrative.missionStatement],
    ['Target Population', 'Target Audience', narrative.targetAudience],
    ['Geographic Focus', null, narrative.geographicFocus],
    ['Key Activities', 'Key Programs and Services', narrative.keyPrograms],
    ['Key Achievements', 'Impact Metrics and Achievements', narrative.impactMetrics],
    ['Success Story', 'Success Story or Quote', narrative.successStory],
  ]
  return (
    <div>
      {sections.map(([title, field, text]) => (
        <div key={title} className="section-block">
          <h3>
            {title}
            {field ? <span className="field-origin"> (the form's “{spell(field, variety)}”)</span> : null}
          </h3>
          <p>{text || NOT_PROVIDED}</p>
        </div>
      ))}
    </div>
  )
}

const STATUS_LABELS: Record<string, string> = { stopped: 'Stopped', failed: 'Failed', generating: 'Generating' }

function FunderLine({ funder }: { funder: NonNullable<LoaderData['funder']> }) {
  const locale = useLocale()
  const name = funder.id ? <Link to={`/funders/${encodeURIComponent(funder.id)}`}>{funder.name}</Link> : funder.name
  return (
    <p className="funder-line">
      Written for {name}
      {funder.amountRequested ? `, asking ${describeAmountRequested(funder.amountRequested, locale)}` : ''}
      {funder.deadline ? ` · deadline ${formatDate(`${funder.deadline}T12:00:00Z`, 'UTC', locale)}` : ''}
    </p>
  )
}

function NarrativeHeading({ narrative, maxWords }: { narrative: Narrative; maxWords: number | null }) {
  // A call's word limit below the usual length is the target.
  const target = maxWords && maxWords < NARRATIVE_WORDS.max ? { min: 0, max: maxWords } : NARRATIVE_WORDS
  return (
    <div className="output-header">
      <h2 id="narrative-title">Generated Narrative</h2>
      <WordCount text={narrative.generatedNarrative} min={target.min} max={target.max} />
      {/* 'manual': the text came with the record through the token API; no model wrote it. */}
      <span className="engine-label">{narrative.engine === 'manual' ? 'Saved through the API' : engineLabel(narrative.engine)}</span>
      {narrative.status === 'complete' ? null : (
        <span className={`status-badge status-${narrative.status}`}>{STATUS_LABELS[narrative.status] ?? narrative.status}</span>
      )}
    </div>
  )
}

function EditNarrativeForm({ narrative, basePath }: { narrative: Narrative; basePath: string }) {
  const actionData = useActionData<typeof action>()
  const lastResult = actionData?.intent === 'save' ? actionData.result : undefined
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

function MetaFooter({ narrative }: { narrative: Narrative }) {
  const timeZone = useLocalTimeZone()
  const locale = useLocale()
  return (
    <footer className="meta-footer">
      <p>
        ID: <code>{narrative.id}</code>
      </p>
      <p>Tone: {narrative.tone}</p>
      <p>Last updated: {formatDateTime(narrative.updatedAt, timeZone, locale)}</p>
    </footer>
  )
}

export { NarrativeErrorBoundary as ErrorBoundary } from '~/components/narrative-error'
