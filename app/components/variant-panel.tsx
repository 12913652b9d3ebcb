import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { useEffect, useRef, useState } from 'react'
import { Form, useNavigation, useSubmit } from 'react-router'
import { ClaimedText, ClaimsSummary, type ClaimView } from '~/components/claimed-text'
import { DownloadButton } from '~/components/download-button'
import { CopyButton } from '~/components/copy-button'
import { ErrorList, Field } from '~/components/forms'
import type { GenerationState } from '~/hooks/use-generation'
import { useLocale } from '~/hooks/use-locale'
import { formatDateTime } from '~/shared/dates'
import { useLocalTimeZone } from '~/hooks/use-local-time-zone'
import { measure, unitLabel, VARIANT_FORMAT_DETAILS, VARIANT_FORMATS, VariantRequestSchema, type Limit } from '~/shared/variant-limits'
import { variantCost, variantsUsedUp } from '~/shared/allowance'
import { useSchemaForm } from '~/hooks/use-schema-form'

export type VariantView = {
  id: string
  format: string
  /** For an answer to one of a call's questions: the question. */
  question?: string | null
  limit: Limit
  text: string
  createdAt: string | Date
  claims: ClaimView[]
  /** False once the narrative's text has been edited since it was written. */
  current: boolean
}

/** Works without JavaScript (the page waits for the variant); with it, the variant streams in with a live count. */
export function VariantPanel({
  basePath,
  variants,
  live,
  liveLimit,
  variantsLeft,
  lastResult,
}: {
  basePath: string
  variants: VariantView[]
  /** The variant being written, or just finished, on this page. */
  live: (GenerationState & { id: string }) | null
  liveLimit: Limit | null
  /** Null when variants cost nothing (the offline drafter). */
  variantsLeft: number | null
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const navigation = useNavigation()
  const submit = useSubmit()
  const starting = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'variant'
  const writing = starting || live?.status === 'generating'
  const finished = useFinishedHere(live?.status)
  // The box the variant was written in is gone once it ends: focus returns to the panel's heading.
  const headingRef = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    if (finished && (document.activeElement === document.body || !document.activeElement?.isConnected)) headingRef.current?.focus()
  }, [finished])
  const [form, fields] = useSchemaForm(VariantRequestSchema, {
    id: 'variant',
    lastResult,
    defaultValue: { format: 'pitch' },
    onSubmit(event, { formData, submission }) {
      if (submission?.status !== 'success') return
      // With JavaScript the page follows the variant's stream instead of waiting for all of it.
      event.preventDefault()
      formData.set('mode', 'stream')
      submit(formData, { method: 'POST', action: basePath, replace: true, preventScrollReset: true })
    },
  })
  return (
    <section className="section-block" aria-labelledby="variants-title" id="variants">
      <h2 id="variants-title" ref={headingRef} tabIndex={-1}>
        Fit to a limit
      </h2>
      <p className="field-hint">
        Write this narrative again within a funder portal's word or character limit. The limit is kept: a text that runs over is shortened
        at a whole sentence. {variantCost(variantsLeft)}
      </p>
      <Form method="post" action={basePath} {...getFormProps(form)} preventScrollReset>
        <input type="hidden" name="intent" value="variant" />
        <fieldset className="variant-formats" aria-describedby={fields.format.errors?.length ? fields.format.errorId : undefined}>
          <legend>Format</legend>
          {VARIANT_FORMATS.map((value) => (
            <label key={value} className="variant-format">
              <input
                type="radio"
                name={fields.format.name}
                value={value}
                defaultChecked={(fields.format.initialValue ?? 'pitch') === value}
              />
              <span>
                <strong>{VARIANT_FORMAT_DETAILS[value].label}</strong>: {VARIANT_FORMAT_DETAILS[value].description}
              </span>
            </label>
          ))}
          <ErrorList id={fields.format.errorId} errors={fields.format.errors} />
        </fieldset>
        {/* The hint covers both fields, so it sits above them and the two inputs line up. */}
        <fieldset className="variant-custom" aria-describedby="variant-custom-hint">
          <legend>Custom limit</legend>
          <p id="variant-custom-hint" className="field-hint">
            For Custom: fill in words or characters, not both.
          </p>
          <div className="variant-custom-fields">
            <Field meta={fields.maxWords} type="number" label="Most words" />
            <Field meta={fields.maxCharacters} type="number" label="Most characters" />
          </div>
        </fieldset>
        <ErrorList id={form.errorId} errors={form.errors} />
        <button type="submit" className="button button-primary" disabled={writing || variantsUsedUp(variantsLeft)}>
          {writing ? 'Writing...' : 'Write variant'}
        </button>
      </Form>
      <p className="visually-hidden" role="status">
        {writing ? 'Writing the variant...' : finished && live ? finishedMessage(live, liveLimit) : ''}
      </p>
      {live ? <LiveVariant live={live} limit={liveLimit} /> : null}
      {variants.length ? <VariantList variants={variants} /> : null}
    </section>
  )
}

function LiveVariant({ live, limit }: { live: GenerationState; limit: Limit | null }) {
  if (live.status !== 'generating' && live.status !== 'failed') return null
  return (
    <div className="variant-live card">
      <h3>{live.status === 'failed' ? 'The variant could not be written' : 'Writing the variant...'}</h3>
      {live.status === 'failed' ? (
        <p className="status-note status-note-failed" role="alert">
          {live.note ?? 'An error occurred while writing the variant.'} Today's narrative was given back.
        </p>
      ) : (
        <>
          {live.note ? <p className="status-note">{live.note}</p> : null}
          {limit ? <LimitCount text={live.text} limit={limit} /> : null}
          {/* Write variant is disabled once pressed, which drops its focus: the text being written takes it. */}
          <div ref={focus} className="output-box variant-box" role="region" aria-label="Variant text" aria-busy="true" tabIndex={0}>
            {live.text}
            <span className="cursor" aria-hidden="true" />
          </div>
        </>
      )}
    </div>
  )
}

/** "87 / 280 characters", and "over the limit" in words when it is. */
function LimitCount({ text, limit }: { text: string; limit: Limit }) {
  const count = measure(text, limit)
  const over = count > limit.max
  return (
    <span className={`word-count${over ? '' : ' word-count-ok'}`}>
      {count} / {limit.max} {unitLabel(limit)}
      {over ? ' (over the limit)' : ''}
    </span>
  )
}

function VariantList({ variants }: { variants: VariantView[] }) {
  const timeZone = useLocalTimeZone()
  const locale = useLocale()
  return (
    <ol className="variant-list">
      {variants.map((variant) => {
        const label = variant.question
          ? `Answer to “${variant.question}”`
          : (VARIANT_FORMAT_DETAILS[variant.format as keyof typeof VARIANT_FORMAT_DETAILS]?.label ?? variant.format)
        const title = `${label}, ${formatDateTime(variant.createdAt, timeZone, locale)}`
        const idPrefix = `variant-${variant.id}-claim`
        return (
          <li key={variant.id} id={`variant-${variant.id}`} className="variant card">
            <div className="output-header">
              <h3>{title}</h3>
              <LimitCount text={variant.text} limit={variant.limit} />
            </div>
            {variant.current ? null : (
              <p className="variant-stale">
                <strong>Out of date:</strong> written from an earlier text of the narrative, which has been edited since.{' '}
                {variant.question ? 'Write the answer again below' : 'Write it again above'} to fit the text as it is now.
              </p>
            )}
            <ClaimsSummary claims={variant.claims} idPrefix={idPrefix} />
            <p className="variant-text">
              <ClaimedText text={variant.text} claims={variant.claims} idPrefix={idPrefix} />
            </p>
            <div className="actions">
              <CopyButton text={variant.text} />
              <DownloadButton href={`/resources/variants/${encodeURIComponent(variant.id)}/docx`} label="Download as Word Document" />
            </div>
          </li>
        )
      })}
    </ol>
  )
}

const focus = (element: HTMLElement | null) => element?.focus()

/** True once a variant this page watched being written has ended; not for one that had ended already. */
function useFinishedHere(status: GenerationState['status'] | undefined) {
  const [finished, setFinished] = useState(false)
  const previous = useRef(status)
  useEffect(() => {
    if (previous.current === 'generating' && (status === 'complete' || status === 'failed')) setFinished(true)
    if (status === 'generating') setFinished(false)
    previous.current = status
  }, [status])
  return finished
}

function finishedMessage(live: GenerationState, limit: Limit | null) {
  if (live.status === 'failed') return 'The variant could not be written.'
  return limit ? `Variant written: ${measure(live.text, limit)} ${unitLabel(limit)}.` : 'Variant written.'
}
