import { Form, useNavigation } from 'react-router'
import { SubmitButton } from '~/components/forms'
import { useLocale } from '~/hooks/use-locale'
import { useLocalTimeZone } from '~/hooks/use-local-time-zone'
import { formatDate } from '~/shared/dates'
import { STAGE_LABELS, STAGES, type Stage } from '~/shared/stages'

/** Where the application stands, the way it came there with the date of each stage, and a form to move it on. */
export function StagePanel({ basePath, stage, stages }: { basePath: string; stage: Stage; stages: { stage: Stage; at: Date | string }[] }) {
  const timeZone = useLocalTimeZone()
  const locale = useLocale()
  const navigation = useNavigation()
  return (
    <section className="section-block" aria-labelledby="stage-title" id="stage" tabIndex={-1}>
      <h2 id="stage-title">Stage: {STAGE_LABELS[stage]}</h2>
      <ol className="stage-way" aria-label="Stages reached">
        {stages.map((reached) => (
          <li key={reached.stage}>
            {STAGE_LABELS[reached.stage]}{' '}
            <time dateTime={new Date(reached.at).toISOString()}>{formatDate(reached.at, timeZone, locale)}</time>
          </li>
        ))}
      </ol>
      <Form method="post" action={basePath} className="stage-form" preventScrollReset>
        <input type="hidden" name="intent" value="stage" />
        <div className="field">
          <label htmlFor="stage-select">Move to</label>
          <select id="stage-select" name="stage" defaultValue={stage} key={stage}>
            {STAGES.map((option) => (
              <option key={option} value={option}>
                {STAGE_LABELS[option]}
              </option>
            ))}
          </select>
        </div>
        <SubmitButton pendingText="Saving..." className="button button-secondary" pending={navigation.formData?.get('intent') === 'stage'}>
          Set stage
        </SubmitButton>
      </Form>
    </section>
  )
}
