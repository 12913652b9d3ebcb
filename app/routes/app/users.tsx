import { fullName } from '~/shared/user-summary'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from 'react-router'
import { useActionData, useLoaderData } from 'react-router'
import { ConfirmDisableDialog, InviteForm, replyTo, SearchForm, UsersTable, usersHref, type ConsoleReply } from '~/components/user-console'
import { Pagination } from '~/components/narrative-list'
import { type AuthUser, requireAdmin } from '~/server/accounts/auth.server'
import { inviteUser, resendInvitation } from '~/server/accounts/invitations.server'
import { dataWithError, redirectWithError, redirectWithSuccess } from '~/server/http/toast.server'
import { refusalReply } from '~/server/http/refusal-reply.server'
import { updateUserControls, type UserChanges } from '~/server/accounts/user-controls.server'
import { getUserSummary, listUsers, USERS_PAGE_SIZE } from '~/server/accounts/users.server'
import { parsePage } from '~/shared/list-query'
import { getEnv } from '~/server/platform/env.server'
import { DailyLimitFormSchema, InviteSchema } from '~/shared/auth-schemas'
import { intentOf, parseForm } from '~/shared/form'
import { ActionToast } from '~/components/toaster'
import { readForm } from '~/server/http/form.server'

export const meta: MetaFunction = () => [{ title: 'Manage Users | Impact Narrative Studio' }]

export async function loader({ request, url }: LoaderFunctionArgs) {
  const admin = await requireAdmin({ request, url })
  const query = (url.searchParams.get('q') ?? '').slice(0, 200)
  const list = await listUsers({ query, page: parsePage(url.searchParams.get('page')), limit: USERS_PAGE_SIZE })
  // ?disable=ID asks to confirm (a GET changes nothing); the dialog's form does it.
  const disableId = url.searchParams.get('disable')
  const toDisable = disableId && disableId !== admin.id ? await getUserSummary(disableId) : null
  const { DAILY_NARRATIVE_LIMIT, SIGNUPS } = getEnv()
  return {
    users: list.users,
    pagination: list.pagination,
    firstIndex: (list.pagination.page - 1) * USERS_PAGE_SIZE + 1,
    query,
    currentUserId: admin.id,
    defaultLimit: DAILY_NARRATIVE_LIMIT,
    signups: SIGNUPS,
    confirmDisable: toDisable && !toDisable.disabled ? { id: toDisable.id, email: toDisable.email, name: fullName(toDisable) } : null,
  }
}

export async function action({ request, url }: ActionFunctionArgs) {
  const admin = await requireAdmin({ request, url })
  const formData = await readForm(request)
  const back = usersHref({ q: url.searchParams.get('q') ?? '', page: parsePage(url.searchParams.get('page')) })
  const id = String(formData.get('id') ?? '')
  const intent = intentOf(formData, ['invite', 'limit', 'resend', 'disable', 'enable', 'grant', 'revoke'])
  switch (intent) {
    case 'invite':
      return invite(admin, formData, back)
    case 'limit':
      return setLimit(admin, formData, back)
    case 'resend':
      return resendTo(admin, id, back)
    case 'disable':
    case 'enable':
    case 'grant':
    case 'revoke':
      return changeUser(admin, id, intent, back)
  }
}

type Change = 'disable' | 'enable' | 'grant' | 'revoke'

const CHANGES: Record<Change, { changes: UserChanges; done: (email: string) => string }> = {
  disable: { changes: { disabled: true }, done: (email) => `${email} is disabled and signed out everywhere.` },
  enable: { changes: { disabled: false }, done: (email) => `${email} is enabled again.` },
  grant: { changes: { isAdmin: true }, done: (email) => `${email} is now an administrator.` },
  revoke: { changes: { isAdmin: false }, done: (email) => `${email} is no longer an administrator.` },
}

async function changeUser(admin: AuthUser, id: string, intent: Change, back: string) {
  try {
    const user = await updateUserControls(admin, id, CHANGES[intent].changes)
    return redirectWithSuccess(back, CHANGES[intent].done(user.email))
  } catch (error) {
    return refusalReply<ConsoleReply>(error, ({ message }) => ({ intent, id, message }))
  }
}

async function setLimit(admin: AuthUser, formData: FormData, back: string) {
  const submission = parseForm(formData, DailyLimitFormSchema)
  const id = String(formData.get('id') ?? '')
  if (submission.status !== 'success') {
    return dataWithError<ConsoleReply>({ intent: 'limit', id, result: submission.reply() }, 'Check the daily limit', { status: 400 })
  }
  const dailyLimit = submission.value.dailyLimit ?? null
  try {
    const user = await updateUserControls(admin, submission.value.id, { dailyLimit })
    const done =
      dailyLimit === null ? `${user.email} has the default daily limit again.` : `${user.email} may generate ${dailyLimit} a day.`
    return redirectWithSuccess(back, done)
  } catch (error) {
    return refusalReply<ConsoleReply>(error, ({ message }) => ({ intent: 'limit', id, message }))
  }
}

async function invite(admin: AuthUser, formData: FormData, back: string) {
  const submission = parseForm(formData, InviteSchema)
  if (submission.status !== 'success') {
    return dataWithError<ConsoleReply>({ intent: 'invite', result: submission.reply() }, 'Check the invitation', { status: 400 })
  }
  try {
    const { user, mailed } = await inviteUser(admin, submission.value)
    if (!mailed)
      return redirectWithError(
        back,
        `The account for ${user.email} was created, but the email could not be sent. Send the invitation again.`,
      )
    return redirectWithSuccess(back, `Invitation sent to ${user.email}.`)
  } catch (error) {
    return refusalReply<ConsoleReply>(error, ({ message }) => ({
      intent: 'invite',
      result: submission.reply({ fieldErrors: { email: [message] } }),
    }))
  }
}

async function resendTo(admin: AuthUser, id: string, back: string) {
  try {
    const { user, mailed } = await resendInvitation(admin, id)
    if (!mailed) return redirectWithError(back, `The invitation to ${user.email} could not be sent. Try again later.`)
    return redirectWithSuccess(back, `Invitation sent again to ${user.email}.`)
  } catch (error) {
    return refusalReply<ConsoleReply>(error, ({ message }) => ({ intent: 'resend', id, message }))
  }
}

export default function UsersPage() {
  const {
    users,
    pagination,
    firstIndex: first,
    query,
    currentUserId,
    defaultLimit,
    signups,
    confirmDisable,
  } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>() as ConsoleReply | undefined
  return (
    <div className="page">
      <ActionToast from={reply} />
      <header className="page-header">
        <h1>Manage Users</h1>
        <p className="page-subtitle">
          {signups === 'closed' ? 'Sign-ups are closed: people join by invitation.' : 'Sign-ups are open: anyone can create an account.'}
        </p>
      </header>
      {/* First after the heading, so the keyboard reaches it first when it is open without JavaScript. */}
      {confirmDisable ? <ConfirmDisableDialog user={confirmDisable} back={usersHref({ q: query, page: pagination.page })} /> : null}
      {reply?.message ? (
        <p className="form-alert" role="alert">
          {reply.message}
        </p>
      ) : null}
      <InviteForm lastResult={replyTo(reply, 'invite')?.result} />
      <SearchForm query={query} />
      <UsersTable
        users={users}
        firstIndex={first}
        caption={
          pagination.total === 0
            ? `No accounts${query ? ` match “${query}”` : ''}`
            : `Accounts ${first} to ${first + users.length - 1} of ${pagination.total}${query ? `, matching “${query}”` : ''}`
        }
        currentUserId={currentUserId}
        defaultLimit={defaultLimit}
        disableHref={(id) => usersHref({ q: query, page: pagination.page, disable: id })}
        reply={reply}
      />
      <Pagination page={pagination.page} pages={pagination.pages} pageHref={(page) => usersHref({ q: query, page })} />
    </div>
  )
}
