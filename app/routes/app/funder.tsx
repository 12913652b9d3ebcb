import {
  type ActionFunctionArgs,
  data,
  Form,
  isRouteErrorResponse,
  Link,
  type LoaderFunctionArgs,
  type MetaFunction,
  type ShouldRevalidateFunction,
  useActionData,
  useLoaderData,
  useNavigation,
  useRouteError,
} from 'react-router'
import { useEffect, useRef } from 'react'
import { moveButtonId, type Moving, priorityRowId, UnderstoodForm } from '~/components/funder-brief-form'
import { RequestIdNote } from '~/components/request-id'
import { SubmitButton } from '~/components/forms'
import { ActionToast } from '~/components/toaster'
import { requireUser } from '~/server/accounts/auth.server'
import { dataWithError, redirectWithSuccess } from '~/server/http/toast.server'
import { refusalReply } from '~/server/http/refusal-reply.server'
import { deleteFunder, getFunder, movePriority, updateFunder } from '~/server/funders/funders.server'
import { loadFunderPage } from '~/server/funders/funder-page.server'
import { formatDate } from '~/shared/dates'
import { useLocale } from '~/hooks/use-locale'
import { briefFromEditForm, FunderEditFormSchema, PriorityMoveFormSchema, prioritiesOfEditForm } from '~/shared/funder-schema'
import { intentOf, parseForm } from '~/shared/form'
import { readForm } from '~/server/http/form.server'

// One funder brief (docs/spec.md#funder-briefs): what was understood of the call is corrected in one plain form;
// each priority is moved up or down by a small form of its own, which saves the new order at once.

export const meta: MetaFunction<typeof loader> = ({ loaderData }) => [
  {
    title: loaderData
      ? `${loaderData.funder.name}: Funder Brief | Impact Narrative Studio`
      : 'Funder brief not found | Impact Narrative Studio',
  },
]

const LIST = '/funders'
const SAVED = 'Funder brief saved.'
const MOVE_UNREAD = 'That move could not be read. Reload the page and try again.'
const MOVE_CHANGED =
  'The priorities have changed since this page was shown (in another tab, or by a second press), so nothing was moved. Here they are as saved now.'

export async function loader({ request, params, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  const page = await loadFunderPage({ viewer: user, id: params.id ?? '', request })
  if (!page) throw new Response('Funder brief not found', { status: 404 })
  return page
}

export async function action({ request, params, url }: ActionFunctionArgs) {
  const user = await requireUser({ request, url })
  const id = params.id ?? ''
  // Another's brief is not found, whatever the form holds.
  if (!(await getFunder(user, id))) throw new Response('Funder brief not found', { status: 404 })
  const formData = await readForm(request)
  switch (intentOf(formData, ['delete', 'move', 'save'])) {
    case 'delete':
      if (!(await deleteFunder(user, id))) throw new Response('Funder brief not found', { status: 404 })
      return redirectWithSuccess(LIST, 'Funder brief deleted. The narratives written for it keep its name.')
    case 'move':
      return moveAction(user, id, formData)
    case 'save':
      return saveAction(user, id, formData, request.signal)
  }
}

async function saveAction(user: Parameters<typeof updateFunder>[0], id: string, formData: FormData, signal: AbortSignal) {
  const submission = parseForm(formData, FunderEditFormSchema)
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    if (!(await updateFunder(user, id, briefFromEditForm(submission.value), signal)))
      throw new Response('Funder brief not found', { status: 404 })
  } catch (error) {
    return refusalReply(error, ({ message }) => ({ result: submission.reply({ formErrors: [message] }) }))
  }
  const { skipped } = prioritiesOfEditForm(submission.value)
  return redirectWithSuccess(
    `${LIST}/${encodeURIComponent(id)}`,
    skipped.length ? `${SAVED} Already among its priorities, so not added again: ${quoted(skipped)}.` : SAVED,
  )
}

async function moveAction(user: Parameters<typeof movePriority>[0], id: string, formData: FormData) {
  const submission = parseForm(formData, PriorityMoveFormSchema)
  if (submission.status !== 'success') return dataWithError({ moved: false }, MOVE_UNREAD, { status: 400 })
  const move = submission.value
  const moved = await movePriority(user, id, move)
  if (moved.status === 'not-found') throw new Response('Funder brief not found', { status: 404 })
  if (moved.status === 'changed') return dataWithError({ moved: false }, MOVE_CHANGED, { status: 409 })
  if (moved.status === 'at-end')
    return dataWithError({ moved: false }, `“${move.priority}” is already ${move.direction === 'up' ? 'first' : 'last'}.`, { status: 400 })
  // To the moved priority's row: without JavaScript the browser scrolls to it, and Tab goes on from there.
  return redirectWithSuccess(
    `${LIST}/${encodeURIComponent(id)}#${priorityRowId(moved.to)}`,
    `Moved “${move.priority}” ${move.direction}: it is now priority ${moved.to + 1} of ${moved.of}.`,
  )
}

// React Router reloads no loaders after a 4xx; a refused move shows the priorities as they are saved now.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.get('intent') === 'move' || defaultShouldRevalidate

const quoted = (texts: string[]) => texts.map((text) => `“${text}”`).join(', ')

export default function FunderPage() {
  const { funder, values } = useLoaderData<typeof loader>()
  const locale = useLocale()
  const reply = useActionData<typeof action>()
  const navigation = useNavigation()
  // Which of the page's forms is being sent: its own button says so, not the others.
  const sending = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null
  const moving = useRef<Moving | null>(null)
  // After a move, the moved priority keeps the focus: on the same button at its new place, or on the other there.
  useEffect(() => {
    const move = moving.current
    if (navigation.state !== 'idle' || !move) return
    moving.current = null
    if (funder.priorities[move.to] !== move.priority) return
    const other = move.direction === 'up' ? 'down' : 'up'
    ;(document.getElementById(moveButtonId(move.to, move.direction)) ?? document.getElementById(moveButtonId(move.to, other)))?.focus()
  }, [navigation.state, funder.priorities])
  return (
    <div className="page">
      <ActionToast from={reply} />
      <header className="page-header">
        <h1>Funder Brief</h1>
        <p className="page-subtitle">{funder.name}</p>
      </header>
      <p className="back-link actions">
        <Link to={LIST} className="button button-secondary">
          Back to funder briefs
        </Link>
        <Link to={`/dashboard?funder=${encodeURIComponent(funder.id)}`} className="button button-primary">
          Write a narrative for this funder
        </Link>
        <Link to={`/admin/narratives?funder=${encodeURIComponent(funder.id)}`} className="button button-secondary">
          Narratives written for it
        </Link>
      </p>
      {/* Saved, the form starts again from what was saved: keyed by when that was, to the millisecond (two saves often share a second). */}
      <UnderstoodForm
        key={funder.updatedAt.getTime()}
        funderId={funder.id}
        values={values}
        saved={funder.priorities}
        amounts={funder.amounts}
        lastResult={reply && 'result' in reply ? reply.result : undefined}
        sending={sending}
        moving={moving}
      />
      <section className="section-block" aria-labelledby="call-title">
        <h2 id="call-title">The call</h2>
        <details className="inputs-disclosure">
          <summary>
            Show the call's text ({funder.source === 'pasted' ? 'pasted' : `read from ${funder.source}`} on{' '}
            {formatDate(funder.createdAt, 'UTC', locale)})
          </summary>
          <p className="call-text">{funder.callText}</p>
        </details>
      </section>
      <section className="section-block" aria-labelledby="delete-title">
        <h2 id="delete-title">Delete this brief</h2>
        <Form method="post">
          <input type="hidden" name="intent" value="delete" />
          <p>The narratives written for it keep the funder's name and what they answered. This cannot be undone.</p>
          <SubmitButton pendingText="Deleting..." pending={sending === 'delete'} className="button button-danger">
            Delete brief
          </SubmitButton>
        </Form>
      </section>
    </div>
  )
}

export function ErrorBoundary() {
  const error = useRouteError()
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <div className="page">
      <div className="card narrow error-page" role="alert">
        <h1>{notFound ? 'Funder brief not found' : 'Failed to load the funder brief'}</h1>
        <RequestIdNote />
        <p>
          <Link to={LIST} className="button button-secondary">
            Back to funder briefs
          </Link>
        </p>
      </div>
    </div>
  )
}
