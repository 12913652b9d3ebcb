import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import { useEffect, useRef, type ReactNode } from 'react'
import { Form, Link, useNavigate } from 'react-router'
import { ErrorList, Field, SubmitButton } from '~/components/forms'
import { DAILY_LIMIT_MAX, DailyLimitFormSchema, InviteSchema } from '~/shared/auth-schemas'
import { formatDate } from '~/shared/dates'
import { useLocalTimeZone } from '~/hooks/use-local-time-zone'
import { useLocale } from '~/hooks/use-locale'
import { type UserSummary, fullName } from '~/shared/user-summary'
import { useSchemaForm } from '~/hooks/use-schema-form'

// Every control on Manage Users is a plain form, so it works without JavaScript.

export const USERS_PATH = '/users'

export type ConsoleReply = { intent: string; id?: string; result?: SubmissionResult<string[]>; message?: string }

export function replyTo(reply: ConsoleReply | undefined, intent: string, id?: string) {
  return reply && reply.intent === intent && (id === undefined || reply.id === id) ? reply : undefined
}

export function usersHref({ q, page, disable }: { q: string; page: number; disable?: string }) {
  const params = new URLSearchParams()
  if (q) params.set('q', q)
  if (page > 1) params.set('page', String(page))
  if (disable) params.set('disable', disable)
  const search = params.toString()
  return search ? `${USERS_PATH}?${search}` : USERS_PATH
}

// Controls name their row's person by name, not email: the email cell alone reads as the email.

export function InviteForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(InviteSchema, {
    id: 'invite',
    lastResult,
  })
  return (
    <section className="form-section" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <p className="field-hint">They get an email with a link to set their password. The link works once, for 7 days.</p>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="invite" />
        <div className="field-row">
          <Field meta={fields.email} label="Email" type="email" inputProps={{ autoComplete: 'off' }} />
          <Field meta={fields.firstName} label="First name" inputProps={{ autoComplete: 'off' }} />
          <Field meta={fields.lastName} label="Last name" inputProps={{ autoComplete: 'off' }} />
        </div>
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton pendingText="Sending..." className="button button-primary">
          Send invitation
        </SubmitButton>
      </Form>
    </section>
  )
}

export function SearchForm({ query }: { query: string }) {
  return (
    <Form method="get" role="search" className="search-form" aria-label="Accounts">
      <label htmlFor="user-search">Search by email or name</label>
      <div className="search-row">
        <input id="user-search" type="search" name="q" defaultValue={query} maxLength={200} />
        <button type="submit" className="button button-secondary">
          Search
        </button>
        {query ? (
          <Link to={USERS_PATH} className="button button-secondary">
            Clear
          </Link>
        ) : null}
      </div>
    </Form>
  )
}

type TableProps = {
  users: UserSummary[]
  /** The ID column numbers the rows (docs/spec.md#manage-users). */
  firstIndex: number
  caption: string
  currentUserId: string
  defaultLimit: number
  disableHref: (id: string) => string
  reply?: ConsoleReply
}

export function UsersTable({ users, firstIndex, caption, ...rowProps }: TableProps) {
  return (
    // Wider than a phone: the scrolling box can be focused, so the keyboard can scroll it (WCAG 2.1.1).
    <div className="table-wrap card" role="region" aria-label="Accounts" tabIndex={0}>
      <table className="table users-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">ID</th>
            <th scope="col">Email</th>
            <th scope="col">First Name</th>
            <th scope="col">Last Name</th>
            <th scope="col">Created At</th>
            <th scope="col">Today</th>
            <th scope="col">In total</th>
            <th scope="col">Daily limit</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user, index) => (
            <UserRow key={user.id} user={user} number={firstIndex + index} {...rowProps} />
          ))}
        </tbody>
      </table>
    </div>
  )
}

function UserRow({
  user,
  number,
  currentUserId,
  defaultLimit,
  disableHref,
  reply,
}: Omit<TableProps, 'users' | 'firstIndex' | 'caption'> & { user: UserSummary; number: number }) {
  const timeZone = useLocalTimeZone()
  const locale = useLocale()
  return (
    <tr>
      <td>{number}</td>
      <td>
        {user.email}
        {user.isAdmin ? <span className="badge">Admin</span> : null}
        {user.disabled ? <span className="status-badge status-failed">Disabled</span> : null}
        {user.invitationPending ? <span className="status-badge status-stopped">Invited</span> : null}
      </td>
      <td>{user.firstName}</td>
      <td>{user.lastName}</td>
      <td>{formatDate(user.createdAt, timeZone, locale)}</td>
      <td>
        {user.generationsToday} of {user.dailyLimit ?? defaultLimit}
      </td>
      <td>{user.generationsTotal}</td>
      <td>
        <LimitForm user={user} defaultLimit={defaultLimit} reply={replyTo(reply, 'limit', user.id)} />
      </td>
      <td className="row-actions">
        <RowActions user={user} self={user.id === currentUserId} disableHref={disableHref(user.id)} />
      </td>
    </tr>
  )
}

function LimitForm({ user, defaultLimit, reply }: { user: UserSummary; defaultLimit: number; reply?: ConsoleReply }) {
  const [form, fields] = useSchemaForm(DailyLimitFormSchema, {
    id: `limit-${user.id}`,
    lastResult: reply?.result,
    defaultValue: { id: user.id, dailyLimit: user.dailyLimit === null ? '' : String(user.dailyLimit) },
  })
  const hintId = `${fields.dailyLimit.id}-hint`
  return (
    <Form method="post" {...getFormProps(form)} className="limit-form">
      <input type="hidden" name="intent" value="limit" />
      <input type="hidden" name="id" value={user.id} />
      <label htmlFor={fields.dailyLimit.id} className="visually-hidden">
        Daily limit for {fullName(user)}
      </label>
      <input
        {...getInputProps(fields.dailyLimit, { type: 'number', ariaDescribedBy: hintId })}
        key={fields.dailyLimit.key}
        min={0}
        max={DAILY_LIMIT_MAX}
        step={1}
        inputMode="numeric"
        placeholder={String(defaultLimit)}
      />
      <button type="submit" className="button button-secondary">
        Save<span className="visually-hidden"> the daily limit for {fullName(user)}</span>
      </button>
      <span id={hintId} className="visually-hidden">
        Empty: the site&apos;s default, {defaultLimit} a day.
      </span>
      <ErrorList id={fields.dailyLimit.errorId} errors={fields.dailyLimit.errors} />
    </Form>
  )
}

function RowActions({ user, self, disableHref }: { user: UserSummary; self: boolean; disableHref: string }) {
  return (
    <>
      {user.invitationPending && !user.disabled ? <IntentButton intent="resend" user={user} label="Send invitation again" /> : null}
      {/* Administrators cannot demote or disable themselves: those controls are not offered. */}
      {self ? null : user.isAdmin ? (
        <IntentButton intent="revoke" user={user} label="Remove admin" />
      ) : (
        <IntentButton intent="grant" user={user} label="Make admin" />
      )}
      {self ? null : user.disabled ? (
        <IntentButton intent="enable" user={user} label="Enable" />
      ) : (
        <Link to={disableHref} className="button button-secondary button-danger-outline" preventScrollReset>
          Disable<span className="visually-hidden"> {fullName(user)}</span>
        </Link>
      )}
    </>
  )
}

function IntentButton({ intent, user, label }: { intent: string; user: UserSummary; label: ReactNode }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={user.id} />
      <button type="submit" className="button button-secondary">
        {label}
        <span className="visually-hidden"> for {fullName(user)}</span>
      </button>
    </Form>
  )
}

/** Reached by a link (?disable=ID) that the server renders open, so it needs no JavaScript; with it, it becomes modal. */
export function ConfirmDisableDialog({ user, back }: { user: { id: string; email: string; name: string }; back: string }) {
  const dialogRef = useRef<HTMLDialogElement>(null)
  const navigate = useNavigate()
  useEffect(() => {
    const dialog = dialogRef.current
    if (!dialog || dialog.matches(':modal')) return
    if (dialog.open) dialog.close()
    dialog.showModal()
  }, [user.id])
  return (
    <dialog
      ref={dialogRef}
      open
      className="dialog"
      aria-labelledby="disable-title"
      aria-describedby="disable-description"
      onCancel={(event) => {
        event.preventDefault()
        navigate(back, { preventScrollReset: true })
      }}
    >
      <h2 id="disable-title">Disable this account?</h2>
      <p id="disable-description">
        {user.name} ({user.email}) will be signed out everywhere at once: every session and API token stops working. They cannot sign in or
        generate until you enable the account again. Their narratives are kept.
      </p>
      <Form method="post" action={back} className="actions" preventScrollReset>
        <input type="hidden" name="intent" value="disable" />
        <input type="hidden" name="id" value={user.id} />
        <Link to={back} className="button button-secondary" preventScrollReset>
          Cancel
        </Link>
        <button type="submit" className="button button-danger">
          Disable account
        </button>
      </Form>
    </dialog>
  )
}
