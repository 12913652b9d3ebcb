import { getFormProps } from '@conform-to/react'
import {
  type ActionFunctionArgs,
  Form,
  Link,
  type LoaderFunctionArgs,
  type MetaFunction,
  replace,
  useActionData,
  useLoaderData,
  useNavigation,
  useRevalidator,
  useSubmit,
} from 'react-router'
import { useCallback, useRef } from 'react'
import { useHydrated } from '~/hooks/use-hydrated'
import { useFocusWhen } from '~/hooks/use-focus-when'
import { useStartedGeneration } from '~/hooks/use-started-generation'
import { DownloadButton, narrativeDocxPath, narrativePdfPath } from '~/components/download-button'
import { CopyButton } from '~/components/copy-button'
import { ErrorList } from '~/components/forms'
import { GenerationGuide } from '~/components/generation-guide'
import { NarrativeFormFields } from '~/components/narrative-form-fields'
import { NarrativeOutput } from '~/components/narrative-output'
import { ActionToast, showToast } from '~/components/toaster'
import { requireUser } from '~/server/accounts/auth.server'
import { intentOf, parseForm } from '~/shared/form'
import { NarrativeInputSchema } from '~/shared/narrative-schema'
import { ForFunderSchema } from '~/shared/for-funder-schema'
import { FunderChoice } from '~/components/funder-choice'
import { CoachButton, OfflineDrafterNote, StopButton } from '~/components/dashboard-controls'
import { forFunder } from '~/server/funders/funders.server'
import { loadDashboard } from '~/server/generation/job/dashboard.server'
import { startGeneration, stopGeneration, waitForGeneration } from '~/server/generation/job/jobs.server'
import { dataWithError, redirectWithSuccess } from '~/server/http/toast.server'
import { refusalOf, refusalRedirect, refusalReply } from '~/server/http/refusal-reply.server'
import { type FinishedStatus, useGeneration } from '~/hooks/use-generation'
import { useSavedForm } from '~/hooks/use-saved-form'
import { useSchemaForm } from '~/hooks/use-schema-form'
import { EvidenceCoach } from '~/components/evidence-coach'
import { useEvidenceCheck } from '~/hooks/use-evidence-check'
import { answerEvidenceCheck } from '~/server/coach/coach.server'
import { EVIDENCE_FIELDS, EvidenceCheckSchema } from '~/shared/evidence'
import { readForm } from '~/server/http/form.server'

export const meta: MetaFunction = () => [{ title: 'Create Narrative | Impact Narrative Studio' }]

const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields to generate a complete narrative'
const DashboardSchema = NarrativeInputSchema.merge(ForFunderSchema)
const GENERATED = 'Narrative generated successfully!'
const GENERATION_FAILED = 'An error occurred while generating the narrative. Please try again.'

export async function loader({ request, url }: LoaderFunctionArgs) {
  return loadDashboard({ viewer: await requireUser({ request, url }), url })
}

export async function action({ request, url }: ActionFunctionArgs) {
  const user = await requireUser({ request, url })
  const formData = await readForm(request)
  // "Check my evidence" without JavaScript: the form comes back as it was sent, with the coach's answer.
  if (formData.has('check')) return checkEvidenceAction(user.id, formData, request.signal)
  switch (intentOf(formData, ['stop', 'generate'])) {
    case 'stop':
      return { stopped: await stopGeneration(String(formData.get('id')), user.id) }
    case 'generate':
      return generate(user, formData)
  }
}

async function generate(user: Parameters<typeof forFunder>[0], formData: FormData) {
  const submission = parseForm(formData, DashboardSchema)
  if (submission.status !== 'success') {
    const result = submission.reply({ formErrors: [REQUIRED_FIELDS_MESSAGE] })
    return dataWithError({ result }, REQUIRED_FIELDS_MESSAGE, { status: 400 })
  }
  const { funderId, amountRequested, ...input } = submission.value
  try {
    const funder = await forFunder(user, { funderId, amountRequested })
    const generation = await startGeneration(user.id, input, funder)
    // With JavaScript the page follows the generation's event stream; the URL names it.
    if (formData.get('mode') === 'stream') return replace(`/dashboard?narrative=${generation.id}`)
    // Without JavaScript the form waits for the whole narrative, then shows the saved narrative.
    await waitForGeneration(generation.id)
    return redirectWithSuccess(`/admin/narratives/${generation.id}`, GENERATED)
  } catch (error) {
    // A brief that is not the user's is said on its field, in the form's words.
    if (refusalOf(error).field === 'funderId') {
      const message = amountRequested && !funderId ? 'Choose the funder brief the amount is asked of.' : 'Choose one of your funder briefs.'
      return refusalReply(
        error,
        () => ({ result: submission.reply({ fieldErrors: { funderId: [message] } }) }),
        () => message,
      )
    }
    if (formData.get('mode') !== 'stream') throw await refusalRedirect(error, '/dashboard')
    return refusalReply(error, ({ message }) => ({ result: submission.reply({ formErrors: [message] }) }))
  }
}

async function checkEvidenceAction(userId: string, formData: FormData, signal: AbortSignal) {
  const submission = parseForm(formData, DashboardSchema)
  // The typed values only, without the form's errors: a check is no attempt to generate.
  const result = { ...submission.reply(), error: {} }
  const fields = Object.fromEntries(EVIDENCE_FIELDS.map((field) => [field, formData.get(field) || undefined]))
  const request = EvidenceCheckSchema.safeParse({ ...fields, secondOpinion: formData.get('check') === 'second-opinion' })
  if (!request.success) return dataWithError({ result }, request.error.issues[0].message, { status: 400 })
  try {
    return { result, check: await answerEvidenceCheck(userId, request.data, signal) }
  } catch (error) {
    return refusalReply(error, () => ({ result }))
  }
}

export default function DashboardPage() {
  const { userId, remaining, quota, engine, offline, secondOpinion, isAdmin, narrative, formValues, editing, rememberedFrom, funders } =
    useLoaderData<typeof loader>()
  // Errors only: a generation that starts redirects to ?narrative=ID, and the loader is the one
  // source of what is shown from then on (a reload resumes the same generation).
  const reply = useActionData<typeof action>()
  const submit = useSubmit()
  const navigation = useNavigation()
  const revalidator = useRevalidator()
  const [form, fields] = useSchemaForm(DashboardSchema, {
    id: 'narrative',
    defaultValue: formValues ?? undefined,
    lastResult: reply && 'result' in reply ? reply.result : undefined,
    onSubmit(event, { formData, submission }) {
      event.preventDefault()
      if (submission?.status !== 'success') return showToast({ type: 'error', message: REQUIRED_FIELDS_MESSAGE })
      formData.set('mode', 'stream')
      submit(formData, { method: 'POST', encType: 'multipart/form-data', replace: true, preventScrollReset: true })
    },
  })
  // Unsaved edits of this user win over the server's copy while they are newer than it; a narrative
  // opened to edit wins over both.
  useSavedForm(form, { userId, server: formValues, basedOn: rememberedFrom, enabled: !editing })

  const onFinish = useCallback(
    (status: FinishedStatus) => {
      if (status === 'complete') showToast({ type: 'success', message: GENERATED })
      if (status === 'failed') showToast({ type: 'error', message: GENERATION_FAILED })
      // The saved row, and the quota a failure refunds.
      revalidator.revalidate()
    },
    [revalidator],
  )
  const startedId = useStartedGeneration()
  const generation = useGeneration(narrative, { onFinish, startedHere: narrative?.id === startedId })
  const starting = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'generate'
  const generating = starting || generation.status === 'generating'
  const canDownload = narrative && !generating && generation.text.length > 0
  const outputRef = useFocusWhen(starting)
  const coach = useEvidenceCheck('narrative', reply && 'check' in reply ? (reply.check ?? null) : null)
  const coachRef = useRef<HTMLElement>(null)
  const hydrated = useHydrated()
  const askCoach = (secondOpinion: boolean) => {
    void coach.run(secondOpinion)
    coachRef.current?.focus()
  }

  return (
    <div className="page dashboard">
      <ActionToast from={reply} />
      <header className="page-header">
        <h1>Create your Impact Narrative</h1>
        <p className="quota" role="status">
          {remaining} {remaining === 1 ? 'narrative' : 'narratives'} left today
        </p>
        <p className="quota-detail">
          Your limit is {quota.limit} a day ·{' '}
          {offline ? 'answers and variants are free offline' : `${quota.variantsLeft} of ${quota.variantLimit} answers and variants left`} ·
          resets in {quota.resetsIn}
        </p>
      </header>
      {/* A status region that is always there, so the message is announced when it appears after a generation. */}
      <div role="status">
        {remaining === 0 ? (
          <p className="quota-empty">
            You have used all {quota.limit} of today's narratives. They reset in {quota.resetsIn}, at midnight UTC.
          </p>
        ) : null}
      </div>
      <GenerationGuide />
      {/* Multipart: its 28,000 characters in a non-Latin script are past the URL-encoded cap (docs/decisions/025). */}
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="narrative-form">
        <input type="hidden" name="intent" value="generate" />
        <NarrativeFormFields
          fields={fields}
          coach={<EvidenceCoach ref={coachRef} check={coach.check} pending={coach.pending} error={coach.error} />}
        />
        <FunderChoice funderId={fields.funderId} amountRequested={fields.amountRequested} funders={funders} />
        <ErrorList id={form.errorId} errors={form.errors} />
        {offline ? <OfflineDrafterNote isAdmin={isAdmin} /> : null}
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={generating || remaining === 0}>
            {generating ? 'Generating...' : 'Generate Impact Narrative'}
          </button>
          {generation.status === 'generating' && narrative ? <StopButton id={narrative.id} /> : null}
          {/* After Generate, which stays the button Enter presses; without JavaScript each sends the form for a check. */}
          <CoachButton hydrated={hydrated} onAsk={() => askCoach(false)} value="evidence">
            Check my evidence
          </CoachButton>
          {secondOpinion ? (
            <CoachButton hydrated={hydrated} onAsk={() => askCoach(true)} value="second-opinion">
              Ask {engine} for a second opinion
            </CoachButton>
          ) : null}
          {canDownload ? (
            <>
              <DownloadButton href={narrativeDocxPath(narrative.id)} label="Download as Word Document" />
              <DownloadButton href={narrativePdfPath(narrative.id)} label="Download as PDF" />
              <CopyButton text={generation.text} />
            </>
          ) : (
            <button type="button" className="button button-secondary" disabled>
              Download as Word Document
            </button>
          )}
        </div>
        {remaining === 0 ? <p className="field-hint">You have used today's narratives. The limit resets at midnight UTC.</p> : null}
        {/* After the button that writes it, so Generate is never below an empty box. */}
        <NarrativeOutput
          ref={outputRef}
          text={generation.text}
          status={starting ? 'generating' : generation.status}
          engine={narrative?.engine ?? engine}
          // The saved row's claims, once the loader has it: they match the text it holds.
          claims={narrative?.status !== 'generating' ? narrative?.claims : undefined}
          leftOut={narrative?.leftOut}
          maxWords={narrative?.maxWords}
        />
        {narrative && narrative.status !== 'generating' && !generating && generation.text ? (
          <p className="saved-link">
            Saved to your narratives. <Link to={`/admin/narratives/${encodeURIComponent(narrative.id)}`}>Open it</Link> to edit the text,
            compare versions or fit it to a limit.
          </p>
        ) : null}
      </Form>
    </div>
  )
}
