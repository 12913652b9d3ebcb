import { getInputProps, getSelectProps, type FieldMetadata } from '@conform-to/react'
import { Link } from 'react-router'
import { ErrorList } from '~/components/forms'
import { formatDate } from '~/shared/dates'
import { useLocale } from '~/hooks/use-locale'
import { formatMoney } from '~/shared/locale'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>
type Brief = { id: string; name: string; deadline: string | null }

/** The dashboard's choice of a funder brief to write for (docs/decisions/030), and the amount the ask names. */
export function FunderChoice({ funderId, amountRequested, funders }: { funderId: AnyField; amountRequested: AnyField; funders: Brief[] }) {
  const select = getSelectProps(funderId)
  const amount = getInputProps(amountRequested, { type: 'text', ariaDescribedBy: `${amountRequested.id}-hint` })
  const locale = useLocale()
  return (
    <fieldset className="form-section">
      <legend>
        <h2>Written for a Funder (Optional)</h2>
      </legend>
      <p className="field-hint">
        Choose a funder's brief and the narrative answers its priorities from your inputs, keeps to its limit and names the funder and the
        amount in its ask. <Link to="/funders">Add or correct funder briefs</Link>.
      </p>
      <div className="field-row">
        <div className="field">
          <label htmlFor={funderId.id}>Funder brief</label>
          <select {...select} key={select.key}>
            <option value="">None: a narrative for any reader</option>
            {funders.map((funder) => (
              <option key={funder.id} value={funder.id}>
                {funder.name}
                {funder.deadline ? ` (deadline ${formatDate(`${funder.deadline}T12:00:00Z`, 'UTC', locale)})` : ''}
              </option>
            ))}
          </select>
          <ErrorList id={funderId.errorId} errors={funderId.errors} />
        </div>
        <div className="field">
          <label htmlFor={amountRequested.id}>Amount requested</label>
          <p id={`${amountRequested.id}-hint`} className="field-hint">
            As you would write it in the ask, for example {formatMoney(25_000, null, locale)}.
          </p>
          <input {...amount} key={amount.key} inputMode="text" autoComplete="off" />
          <ErrorList id={amountRequested.errorId} errors={amountRequested.errors} />
        </div>
      </div>
    </fieldset>
  )
}
