import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from 'react-router'
import { Link, replace, useActionData, useLoaderData, useRevalidator, useSearchParams } from 'react-router'
import { useCallback } from 'react'
import { ClaimedText, ClaimsSummary } from '~/components/claimed-text'
import { VariantPanel } from '~/components/variant-panel'
import { ActionToast } from '~/components/toaster'
import { VersionHistory } from '~/components/version-history'
import { useGeneration } from '~/hooks/use-generation'
import { VariantRequestSchema } from '~/shared/variant-limits'
import { AlignmentPanel } from '~/components/alignment-panel'
import { QuestionAnswers } from '~/components/question-answers'
import { AiUseStatement } from '~/components/ai-use-statement'
import { EditNarrativeForm } from '~/components/edit-narrative-form'
import { FunderLine, MetaFooter, NarrativeHeading, NOT_PROVIDED, OrganisationInputs } from '~/components/narrative-details'
import { startVariant, waitForGeneration } from '~/server/generation/job/jobs.server'
import { getVariantOutcome } from '~/server/narratives/variants.server'
import { restoreVersion } from '~/server/narratives/versions.server'
import { loadNarrativePage } from '~/server/narratives/narrative-page.server'
import { DownloadButton, narrativeDocxPath, narrativePdfPath } from '~/components/download-button'
import { CopyButton } from '~/components/copy-button'
import { requireUser } from '~/server/accounts/auth.server'
import { intentOf, parseForm } from '~/shared/form'
import { NarrativeTextSchema } from '~/shared/narrative-text'
import { updateNarrativeText } from '~/server/narratives/narratives.server'
import { CoverageNote } from '~/components/coverage-note'
import { dataWithError, redirectWithError, redirectWithSuccess } from '~/server/http/toast.server'
import { rateLimitedPageHeaders } from '~/server/http/rate-limited-page.server'
import { refusalOf, refusalRedirect, refusalReply } from '~/server/http/refusal-reply.server'
import { readForm } from '~/server/http/form.server'
import { setStage } from '~/server/narratives/stages.server'
import { STAGE_LABELS, StageChangeSchema } from '~/shared/stages'
import { StagePanel } from '~/components/stage-panel'

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
const STAGE_INVALID = 'Please choose a stage.'
const VARIANT_WRITTEN = 'Variant written.'
const VARIANT_FAILED = "The variant could not be written, and today's narrative was given back. Try again or choose a higher limit."

export async function loader({ request, params, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  const page = await loadNarrativePage({ id: params.id ?? '', viewer: user, url, signal: request.signal })
  if (!page) throw new Response('Not found', { status: 404 })
  return page
}

export async function action({ request, params, url }: ActionFunctionArgs) {
  const user = await requireUser({ request, url })
  const id = params.id ?? ''
  const formData = await readForm(request)
  switch (intentOf(formData, ['save', 'restore', 'variant', 'stage'])) {
    case 'save':
      return saveText(id, user, formData, request.signal)
    case 'restore':
      return restore(id, user, String(formData.get('versionId') ?? ''), request.signal)
    case 'variant':
      return writeVariant(id, user, formData)
    case 'stage':
      return moveStage(id, user, formData)
  }
}

type Viewer = Awaited<ReturnType<typeof requireUser>>
const detailPath = (id: string) => `${LIST_PATH}/${encodeURIComponent(id)}`

async function saveText(id: string, user: Viewer, formData: FormData, signal: AbortSignal) {
  const submission = parseForm(formData, NarrativeTextSchema)
  if (submission.status !== 'success') return dataWithError({ intent: 'save', result: submission.reply() }, UPDATE_FAILED, { status: 400 })
  const reply = (message: string) => ({ intent: 'save', result: submission.reply({ formErrors: [message] }) })
  let updated
  try {
    updated = await updateNarrativeText({ id, viewer: user, text: submission.value.generatedNarrative, signal })
  } catch (error) {
    return refusalReply(error, ({ message }) => reply(message))
  }
  if (!updated) return dataWithError(reply(UPDATE_FAILED), UPDATE_FAILED, { status: 404 })
  return redirectWithSuccess(`${detailPath(id)}#narrative`, UPDATED)
}

async function restore(id: string, user: Viewer, versionId: string, signal: AbortSignal) {
  const back = `${detailPath(id)}#versions`
  try {
    if (!(await restoreVersion({ id, versionId, viewer: user, signal }))) throw await redirectWithError(back, RESTORE_FAILED)
  } catch (error) {
    throw await refusalRedirect(error, back)
  }
  return redirectWithSuccess(back, RESTORED)
}

async function moveStage(id: string, user: Viewer, formData: FormData) {
  const back = `${detailPath(id)}#stage`
  const submission = parseForm(formData, StageChangeSchema)
  if (submission.status !== 'success') throw await redirectWithError(back, STAGE_INVALID)
  let stages
  try {
    stages = await setStage({ id, viewer: user, stage: submission.value.stage })
  } catch (error) {
    throw await refusalRedirect(error, back)
  }
  if (!stages) throw new Response('Not found', { status: 404 })
  return redirectWithSuccess(back, `Stage set to ${STAGE_LABELS[submission.value.stage]}.`)
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
    // A narrative or a question that is not there (or not the user's) is the page's Not found.
    if (refusalOf(error).status === 404) throw new Response('Not found', { status: 404 })
    if (!streaming) throw await refusalRedirect(error, `${detailPath(id)}#variants`)
    return refusalReply(error, ({ message }) => ({ intent: 'variant', result: submission.reply({ formErrors: [message] }) }))
  }
}

export default function NarrativeDetailPage() {
  const { narrative, versions, selectedVersion, variants, liveVariant, canWriteVariants, variantsLeft, funder, disclosure, stage, stages } =
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
        </Link>{' '}
        {funder ? (
          <Link to={`${basePath}/application`} className="button button-secondary">
            Open the application
          </Link>
        ) : null}
      </p>
      <div className="card">
        <section className="section-block" aria-labelledby="narrative-title" id="narrative" tabIndex={-1}>
          <NarrativeHeading narrative={narrative} maxWords={funder?.maxWords ?? null} />
          {editing ? (
            <EditNarrativeForm
              narrative={narrative}
              basePath={basePath}
              lastResult={actionData?.intent === 'save' ? actionData.result : undefined}
            />
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
        <StagePanel basePath={basePath} stage={stage} stages={stages} />
        {editable ? (
          <VersionHistory
            basePath={basePath}
            versions={versions}
            selected={selectedVersion ?? null}
            currentText={narrative.generatedNarrative}
          />
        ) : null}
        {editable && disclosure ? <AiUseStatement statement={disclosure} /> : null}
        {canWriteVariants && editable && narrative.generatedNarrative ? (
          <Variants basePath={basePath} variants={variants} liveVariant={liveVariant} variantsLeft={variantsLeft} />
        ) : null}
        {canWriteVariants && editable && narrative.generatedNarrative && funder?.questions.length ? (
          <QuestionAnswers
            basePath={basePath}
            funder={funder.name}
            questions={funder.questions}
            variantsLeft={variantsLeft}
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
  variantsLeft,
}: Pick<LoaderData, 'variants' | 'liveVariant' | 'variantsLeft'> & { basePath: string }) {
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
      variantsLeft={variantsLeft}
      lastResult={actionData?.intent === 'variant' ? actionData.result : undefined}
    />
  )
}

export { NarrativeErrorBoundary as ErrorBoundary } from '~/components/narrative-error'
