import { fullName } from '~/shared/user-summary'
import type { ActionFunctionArgs, LoaderFunctionArgs } from 'react-router'
import { handleApi, methodNotAllowed, readJson } from '~/server/http/api.server'
import { requireApiUser, toApiUser } from '~/server/accounts/api-auth.server'
import { getQuota } from '~/server/usage/quota.server'
import { calendarUrlFor } from '~/server/narratives/calendar.server'
import { remindersWanted } from '~/server/accounts/deadline-reminders.server'
import { ACCOUNT_DELETED, deleteAccount, renameUser } from '~/server/accounts/account.server'
import { DeleteAccountSchema, ProfileNameSchema } from '~/shared/auth-schemas'

export const loader = ({ request }: LoaderFunctionArgs) =>
  handleApi(async () => {
    const user = await requireApiUser(request)
    const [quota, calendarUrl, deadlineReminders] = await Promise.all([
      getQuota(user.id),
      calendarUrlFor(user.id),
      remindersWanted(user.id),
    ])
    return Response.json({
      ...toApiUser(user),
      name: fullName(user),
      count: quota.remaining,
      variantsLeft: quota.variantsLeft,
      resetsAt: quota.resetsAt.toISOString(),
      calendarUrl,
      deadlineReminders,
    })
  })

export const action = ({ request }: ActionFunctionArgs) =>
  handleApi(async () => {
    if (request.method !== 'PATCH' && request.method !== 'DELETE') return methodNotAllowed()
    const user = await requireApiUser(request)
    if (request.method === 'PATCH')
      return Response.json({ user: toApiUser(await renameUser(user, await readJson(request, ProfileNameSchema))) })
    await deleteAccount(user, (await readJson(request, DeleteAccountSchema)).password)
    return Response.json({ message: ACCOUNT_DELETED })
  })
