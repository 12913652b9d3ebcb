import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from 'react-router'
import { Link, useFetcher, useLoaderData, useNavigation, useRevalidator } from 'react-router'
import { useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react'
import { DownloadButton } from '~/components/download-button'
import { requireUser } from '~/server/accounts/auth.server'
import { formatDate, useLocalTimeZone } from '~/shared/dates'
import { deleteNarrative, listNarratives, type NarrativeWithOwner } from '~/server/narratives/narratives.server'
import { dataWithError, dataWithSuccess } from '~/server/accounts/session.server'
import { toneLabel } from '~/shared/tones'

export const meta: MetaFunction = () => [{ title: 'Narratives | Impact Narrative Studio' }]

const LIST_PATH = '/admin/narratives'
const PREVIEW_LENGTH = 30
const PAGE_MAX = 100_000
const DELETED = 'Narrative deleted successfully!'
const DELETE_FAILED = 'Failed to delete narrative. Please try again.'

export async function loader({ request, url }: LoaderFunctionArgs) {
  const user = await requireUser({ request, url })
  const page = parsePage(url.searchParams.get('page'))
  let list = await listNarratives({ viewer: user, page })
  // A page beyond the last one (a bookmark, or the last row just deleted) shows the last page.
  if (page > list.pagination.pages) list = await listNarratives({ viewer: user, page: list.pagination.pages })
  return {
    showOwner: user.isAdmin,
    narratives: list.data.map((narrative) => toRow(narrative, user.isAdmin)),
    pagination: list.pagination,
  }
}

export async function action({ request, url }: ActionFunctionArgs) {
  const user = await requireUser({ request, url })
  const formData = await request.formData()
  if (formData.get('intent') !== 'delete') throw new Response('Unknown intent', { status: 400 })
  const deleted = await deleteNarrative({ id: String(formData.get('id') ?? ''), viewer: user })
  if (!deleted) return dataWithError({ ok: false }, DELETE_FAILED, { status: 404 })
  return dataWithSuccess({ ok: true }, DELETED)
}

function parsePage(value: string | null) {
  return value && /^\d{1,9}$/.test(value) ? Math.min(Math.max(Number(value), 1), PAGE_MAX) : 1
}

/** Only what the table shows: the owner only for an admin, the text only as its preview. */
function toRow(narrative: NarrativeWithOwner, withOwner: boolean) {
  // One line in a table cell: line breaks and runs of spaces read as single spaces.
  const characters = Array.from(narrative.generatedNarrative.slice(0, PREVIEW_LENGTH * 4).replace(/\s+/g, ' ').trim())
  return {
    id: narrative.id,
    company: narrative.company,
    preview: characters.slice(0, PREVIEW_LENGTH).join('') + (characters.length > PREVIEW_LENGTH ? '...' : ''),
    tone: toneLabel(narrative.tone),
    status: narrative.status,
    createdAt: narrative.createdAt,
    owner: withOwner
      ? { name: `${narrative.user.firstName} ${narrative.user.lastName}`.trim(), email: narrative.user.email }
      : null,
  }
}

type Row = ReturnType<typeof toRow>

export default function NarrativesPage() {
  const { narratives, pagination, showOwner } = useLoaderData<typeof loader>()
  const [deleting, setDeleting] = useState<Row | null>(null)
  const deleteFetcher = useDeleteFetcher()
  const pendingId = deleteFetcher.formData?.get('id')
  const rows = narratives.filter((narrative) => narrative.id !== pendingId)
  return (
    <div className="page">
      <header className="page-header">
        <h1>Narratives</h1>
        <p className="page-subtitle">{showOwner ? 'Admin area: narratives from every user' : 'Your saved narratives'}</p>
        <LoadingIndicator />
      </header>
      {pagination.total === 0 ? (
        <EmptyState />
      ) : (
        <>
          <NarrativesTable rows={rows} showOwner={showOwner} onDelete={setDeleting} />
          <Pagination page={pagination.page} pages={pagination.pages} />
        </>
      )}
      <DeleteDialog
        narrative={deleting}
        onClose={() => setDeleting(null)}
        onConfirm={(id) => deleteFetcher.submit({ intent: 'delete', id }, { method: 'POST', action: `${LIST_PATH}?index` })}
      />
    </div>
  )
}

/** After a failed delete (4xx), loaders are not revalidated by default: revalidate to show the toast. */
function useDeleteFetcher() {
  const fetcher = useFetcher<typeof action>({ key: 'delete-narrative' })
  const revalidator = useRevalidator()
  const failed = fetcher.state === 'idle' && fetcher.data?.ok === false
  useEffect(() => {
    if (failed) revalidator.revalidate()
  }, [failed, fetcher.data]) // eslint-disable-line react-hooks/exhaustive-deps
  return fetcher
}

function LoadingIndicator() {
  const navigation = useNavigation()
  if (navigation.state !== 'loading' || navigation.location.pathname !== LIST_PATH) return null
  return (
    <div className="actions" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">Loading...</span>
    </div>
  )
}

function EmptyState() {
  return (
    <div className="empty-state">
      <h2>No narratives yet</h2>
      <p>There are no narratives yet. Generated narratives are saved here.</p>
      <Link to="/dashboard" className="button button-primary">
        Create your first narrative
      </Link>
    </div>
  )
}

function NarrativesTable({ rows, showOwner, onDelete }: { rows: Row[]; showOwner: boolean; onDelete: (row: Row) => void }) {
  return (
    <div className="table-wrap card">
      <table className="table">
        <caption className="visually-hidden">Saved narratives, newest first</caption>
        <thead>
          <tr>
            {showOwner ? <th scope="col">User Details</th> : null}
            <th scope="col">Company</th>
            <th scope="col">Generated Narrative</th>
            <th scope="col">Tone</th>
            <th scope="col">Created</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <NarrativeRow key={row.id} row={row} onDelete={onDelete} />
          ))}
        </tbody>
      </table>
    </div>
  )
}

const STATUS_LABELS: Record<string, string> = { stopped: 'Stopped', failed: 'Failed', generating: 'Generating' }

function StatusBadge({ status }: { status: string }) {
  if (status === 'complete') return null
  return <span className={`status-badge status-${status}`}>{STATUS_LABELS[status] ?? status}</span>
}

function NarrativeRow({ row, onDelete }: { row: Row; onDelete: (row: Row) => void }) {
  const timeZone = useLocalTimeZone()
  return (
    <tr>
      {row.owner ? (
        <td>
          {row.owner.name}
          <br />
          <small>{row.owner.email}</small>
        </td>
      ) : null}
      <td>{row.company}</td>
      <td>
        {row.preview} <StatusBadge status={row.status} />
      </td>
      <td>{row.tone}</td>
      <td>{formatDate(row.createdAt, timeZone)}</td>
      <td>
        <RowActions row={row} onDelete={onDelete} />
      </td>
    </tr>
  )
}

function RowActions({ row, onDelete }: { row: Row; onDelete: (row: Row) => void }) {
  const busy = row.status === 'generating'
  function openDialog(event: MouseEvent<HTMLAnchorElement>) {
    event.preventDefault()
    onDelete(row)
  }
  return (
    <>
      <IconLink to={`/dashboard?from=${encodeURIComponent(row.id)}`} label="Edit prompts to regenerate narrative" icon={<EditIcon />} />
      <IconLink to={`${LIST_PATH}/${encodeURIComponent(row.id)}`} label="View Narrative" icon={<ViewIcon />} />
      {busy ? null : <DownloadButton narrativeId={row.id} label="Download Narrative" icon={<DownloadIcon />} className="icon-button" />}
      {busy ? null : (
        <IconLink
          to={`${LIST_PATH}/${encodeURIComponent(row.id)}/delete`}
          label="Delete Narrative"
          icon={<DeleteIcon />}
          danger
          onClick={openDialog}
        />
      )}
    </>
  )
}

function IconLink({
  to,
  label,
  icon,
  danger = false,
  onClick,
}: {
  to: string
  label: string
  icon: ReactNode
  danger?: boolean
  onClick?: (event: MouseEvent<HTMLAnchorElement>) => void
}) {
  return (
    <Link to={to} className={`icon-button${danger ? ' icon-button-danger' : ''}`} aria-label={label} data-tooltip={label} onClick={onClick}>
      {icon}
    </Link>
  )
}

function Pagination({ page, pages }: { page: number; pages: number }) {
  return (
    <nav className="pagination" aria-label="Pagination">
      <PageLink page={page - 1} pages={pages} label="Previous" />
      <span>
        Page {page} of {pages}
      </span>
      <PageLink page={page + 1} pages={pages} label="Next" />
    </nav>
  )
}

function PageLink({ page, pages, label }: { page: number; pages: number; label: string }) {
  if (page < 1 || page > pages) {
    // A disabled link: no href, so it is neither focusable nor followed.
    return (
      <a role="link" aria-disabled="true" className="button button-secondary">
        {label}
      </a>
    )
  }
  return (
    <Link to={`${LIST_PATH}?page=${page}`} className="button button-secondary" rel={label === 'Next' ? 'next' : 'prev'}>
      {label}
    </Link>
  )
}

function DeleteDialog({ narrative, onClose, onConfirm }: { narrative: Row | null; onClose: () => void; onConfirm: (id: string) => void }) {
  const dialogRef = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const dialog = dialogRef.current
    if (narrative && dialog && !dialog.open) dialog.showModal()
    if (!narrative && dialog?.open) dialog.close()
  }, [narrative])
  return (
    <dialog ref={dialogRef} className="dialog" aria-labelledby="delete-title" aria-describedby="delete-description" onClose={onClose}>
      <h2 id="delete-title">Confirm Delete</h2>
      <p id="delete-description">Are you sure you want to delete this narrative? This action cannot be undone.</p>
      {narrative ? <p>{narrative.company}</p> : null}
      <div className="actions">
        <button type="button" className="button button-secondary" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="button button-danger"
          onClick={() => {
            if (narrative) onConfirm(narrative.id)
            onClose()
          }}
        >
          Delete
        </button>
      </div>
    </dialog>
  )
}

/** The row actions' icons: 24-unit line drawings in the text colour, hidden from screen readers (the links are labelled). */
function LineIcon({ children }: { children: ReactNode }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      {children}
    </svg>
  )
}

function EditIcon() {
  return (
    <LineIcon>
      <path d="M12 20h9" />
      <path d="M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z" />
    </LineIcon>
  )
}

function ViewIcon() {
  return (
    <LineIcon>
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
    </LineIcon>
  )
}

function DownloadIcon() {
  return (
    <LineIcon>
      <path d="M12 3v12" />
      <path d="m7 10 5 5 5-5" />
      <path d="M5 21h14" />
    </LineIcon>
  )
}

function DeleteIcon() {
  return (
    <LineIcon>
      <path d="M3 6h18" />
      <path d="M8 6V4h8v2" />
      <path d="M19 6l-1 14H6L5 6" />
    </LineIcon>
  )
}
