import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint } from '@conform-to/zod'
import {
  type ActionFunctionArgs,
  Form,
  type LoaderFunctionArgs,
  type MetaFunction,
  useActionData,
  useFetcher,
  useLoaderData,
  useRevalidator,
  useSearchParams,
} from 'react-router'
import { useCallback, useEffect } from 'react'
import { DownloadButton } from '~/components/download-button'
import { ErrorList } from '~/components/forms'
import { GenerationGuide } from '~/components/generation-guide'
import { NarrativeFormFields } from '~/components/narrative-form-fields'
import { NarrativeOutput } from '~/components/narrative-output'
import { showToast } from '~/components/toaster'
import { requireUser } from '~/server/accounts/auth.server'
import { parseForm } from '~/shared/form'
import { getEngine } from '~/server/generation/engine.server'
import { NarrativeInputSchema } from '~/shared/narrative-schema'
import { getNarrative, toFormValues } from '~/server/narratives/narratives.server'
import { QuotaError, startGeneration, stopGeneration, waitForGeneration } from '~/server/generation/jobs.server'
import { getRemainingQuota } from '~/server/generation/quota.server'
import { dataWithError, redirectWithError, redirectWithSuccess } from '~/server/accounts/session.server'
import { useGenerationStream, type StreamStatus } from '~/hooks/use-generation-stream'
import { useSavedForm } from '~/hooks/use-saved-form'

export const meta: MetaFunction = () => [{ title: 'Create Narrative | Impact Narrative Studio' }]

const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields to generate a complete narrative'
const GENERATED = 'Narrative generated successfully!'
const GENERATION_FAILED = 'An error occurred while generating the narrative. Please try again.'

export async function loader({ request, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  const searchParams = url.searchParams
  const narrativeId = searchParams.get('narrative')
  const fromId = searchParams.get('from')
  const [remaining, narrative, source] = await Promise.all([
    getRemainingQuota(user.id),
    narrativeId ? getNarrative({ id: narrativeId, viewer: user }) : null,
    // Edit to regenerate: a saved narrative's inputs fill the form.
    fromId ? getNarrative({ id: fromId, viewer: user }) : null,
  ])
  return {
    remaining,
    engine: getEngine().name,
    formValues: source ? toFormValues(source) : null,
    narrative: narrative && {
      id: narrative.id,
      text: narrative.generatedNarrative,
      status: narrative.status as StreamStatus,
      engine: narrative.engine,
    },
  }
}

export async function action({ request, url }: ActionFunctionArgs) {
  const user = await requireUser({ request, url })
  const formData = await request.formData()
  const intent = formData.get('intent')
  if (intent === 'stop') {
    return { stopped: stopGeneration(String(formData.get('id')), user.id) }
  }
  if (intent !== 'generate') throw new Response('Unknown intent', { status: 400 })

  const submission = parseForm(formData, NarrativeInputSchema)
  if (submission.status !== 'success') {
    const result = submission.reply({ formErrors: [REQUIRED_FIELDS_MESSAGE] })
    return dataWithError({ result, generation: null }, REQUIRED_FIELDS_MESSAGE, { status: 400 })
  }
  try {
    const generation = await startGeneration(user.id, submission.value)
    if (formData.get('mode') === 'stream') return { result: submission.reply(), generation: { id: generation.id, engine: generation.engine } }
    // Without JavaScript the form waits for the whole narrative, then shows the saved narrative.
    await waitForGeneration(generation.id)
    return redirectWithSuccess(`/admin/narratives/${generation.id}`, GENERATED)
  } catch (error) {
    if (!(error instanceof QuotaError)) throw error
    if (formData.get('mode') !== 'stream') throw await redirectWithError('/dashboard', error.message)
    return dataWithError({ result: submission.reply({ formErrors: [error.message] }), generation: null }, error.message, { status: 429 })
  }
}

export default function DashboardPage() {
  const { remaining, engine, narrative, formValues } = useLoaderData<typeof loader>()
  const fetcher = useFetcher<typeof action>()
  // With JavaScript the form goes through the fetcher; without it, through a document POST.
  const actionData = useActionData<typeof action>()
  const reply = fetcher.data ?? actionData
  const revalidator = useRevalidator()
  const [searchParams, setSearchParams] = useSearchParams()
  const [form, fields] = useForm({
    id: 'narrative',
    defaultValue: formValues ?? undefined,
    lastResult: reply && 'result' in reply ? reply.result : undefined,
    constraint: getZodConstraint(NarrativeInputSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, NarrativeInputSchema),
    onSubmit(event, { formData, submission }) {
      event.preventDefault()
      if (submission?.status !== 'success') return showToast({ type: 'error', message: REQUIRED_FIELDS_MESSAGE })
      saveForm(formData)
      formData.set('mode', 'stream')
      fetcher.submit(formData, { method: 'POST' })
    },
  })
  const saveForm = useSavedForm(form, { restore: !formValues })

  // A new generation puts its id in the URL, so a reload resumes it.
  const started = fetcher.data && 'generation' in fetcher.data ? fetcher.data.generation : null
  useEffect(() => {
    if (started && searchParams.get('narrative') !== started.id) {
      setSearchParams({ narrative: started.id }, { replace: true, preventScrollReset: true })
    }
  }, [started]) // eslint-disable-line react-hooks/exhaustive-deps

  const onFinish = useCallback(
    (status: StreamStatus) => {
      if (status === 'complete') showToast({ type: 'success', message: GENERATED })
      if (status === 'failed') showToast({ type: 'error', message: GENERATION_FAILED })
      revalidator.revalidate()
    },
    [revalidator],
  )
  const current = started && narrative?.id !== started.id ? { id: started.id, text: '', status: 'generating' as const, engine: started.engine } : narrative
  const stream = useGenerationStream(current?.id ?? null, { text: current?.text ?? '', status: current?.status ?? 'idle' }, onFinish)
  const generating = stream.status === 'generating' || fetcher.state !== 'idle'
  const canDownload = current && !generating && stream.text.length > 0

  return (
    <div className="page dashboard">
      <header className="page-header">
        <h1>Create your Impact Narrative</h1>
        <p className="quota" role="status">Limit: {remaining} narratives daily</p>
      </header>
      <GenerationGuide />
      <Form method="post" {...getFormProps(form)} className="narrative-form">
        <input type="hidden" name="intent" value="generate" />
        <NarrativeFormFields fields={fields} />
        <ErrorList id={form.errorId} errors={form.errors} />
        <NarrativeOutput text={stream.text} status={stream.status} engine={current?.engine ?? engine} />
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={generating || remaining === 0}>
            {generating ? 'Generating...' : 'Generate Impact Narrative'}
          </button>
          {stream.status === 'generating' && current ? <StopButton id={current.id} /> : null}
          {canDownload ? (
            <DownloadButton narrativeId={current.id} label="Download as Word Document" />
          ) : (
            <button type="button" className="button button-secondary" disabled>
              Download as Word Document
            </button>
          )}
        </div>
        {remaining === 0 ? <p className="field-hint">You have used today's narratives. The limit resets at midnight UTC.</p> : null}
      </Form>
    </div>
  )
}

function StopButton({ id }: { id: string }) {
  const fetcher = useFetcher()
  return (
    <button
      type="button"
      className="button button-danger"
      onClick={() => fetcher.submit({ intent: 'stop', id }, { method: 'POST' })}
      disabled={fetcher.state !== 'idle'}
    >
      Stop
    </button>
  )
}

