import { useEffect, useRef, type MouseEvent, type ReactNode } from 'react'
import { Link } from 'react-router'
import { DownloadButton, narrativeDocxPath } from '~/components/download-button'
import { useLocale } from '~/hooks/use-locale'
import { formatDate, formatDateTime } from '~/shared/dates'
import { useLocalTimeZone } from '~/hooks/use-local-time-zone'
import { spell } from '~/shared/locale'

export const LIST_PATH = '/admin/narratives'

/** One narrative as the list shows it: the owner only for an admin, the text only as its preview. */
export type NarrativeListRow = {
  id: string
  company: string
  preview: string
  tone: string
  status: string
  createdAt: Date
  /** The funder it was written for, and the call's deadline (YYYY-MM-DD). */
  funder: string | null
  deadline: string | null
  /** Where the application stands, as its label ("In review"). */
  stage: string
  owner: { name: string; email: string } | null
}

type Row = NarrativeListRow

export function NarrativesTable({
  rows,
  showOwner,
  onDelete,
  caption = 'Saved narratives, newest first',
}: {
  rows: Row[]
  showOwner: boolean
  onDelete: (row: Row) => void
  caption?: string
}) {
  return (
    // Below 68em the rows read as cards (app.css), each cell named by its column. The roles are explicit:
    // some browsers drop a table's semantics once its display is changed.
    <div className="table-wrap card">
      <table className="table table-cards" role="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead role="rowgroup">
          <tr role="row">
            {showOwner ? (
              <th scope="col" role="columnheader">
                User Details
              </th>
            ) : null}
            {['Company', 'Generated Narrative', 'Tone', 'Created', 'Actions'].map((name) => (
              <th key={name} scope="col" role="columnheader">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
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
  const locale = useLocale()
  return (
    <tr role="row">
      {row.owner ? (
        <td role="cell" data-label="User Details">
          {row.owner.name}
          <br />
          <small>{row.owner.email}</small>
        </td>
      ) : null}
      <td role="cell" data-label="Company">
        {row.company}
        {row.funder ? (
          <>
            <br />
            <small>
              for {row.funder}
              {row.deadline ? `, due ${formatDate(`${row.deadline}T12:00:00Z`, 'UTC', locale)}` : ''}
            </small>
          </>
        ) : null}
        <br />
        <small>Stage: {row.stage}</small>
      </td>
      <td role="cell" data-label="Generated Narrative">
        {row.preview} <StatusBadge status={row.status} />
      </td>
      <td role="cell" data-label="Tone">
        {row.tone}
      </td>
      <td role="cell" data-label="Created">
        {formatDateTime(row.createdAt, timeZone, locale)}
      </td>
      <td role="cell" className="row-actions">
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
      {/* Regenerating uses a day's narrative; changing the words does not, and is one click away too. */}
      <ActionLink
        to={`/dashboard?from=${encodeURIComponent(row.id)}`}
        text="Edit inputs"
        label="Edit inputs and write again"
        icon={<RegenerateIcon />}
      />
      {busy ? null : (
        <ActionLink
          to={`${LIST_PATH}/${encodeURIComponent(row.id)}?edit=1#narrative`}
          text="Edit"
          label="Edit Narrative"
          icon={<EditIcon />}
        />
      )}
      <ActionLink to={`${LIST_PATH}/${encodeURIComponent(row.id)}`} text="View" label="View Narrative" icon={<ViewIcon />} />
      {busy ? null : (
        <DownloadButton
          href={narrativeDocxPath(row.id)}
          label="Download Narrative"
          className="action-link"
          icon={
            <>
              <DownloadIcon />
              Download
            </>
          }
        />
      )}
      {busy ? null : (
        <ActionLink
          to={`${LIST_PATH}/${encodeURIComponent(row.id)}/delete`}
          text="Delete"
          label="Delete Narrative"
          icon={<DeleteIcon />}
          danger
          onClick={openDialog}
        />
      )}
    </>
  )
}

/** A row's action: an icon and a word, its accessible name a label beginning with that word (for voice users). */
function ActionLink({
  to,
  text,
  label,
  icon,
  danger = false,
  onClick,
}: {
  to: string
  text: string
  label: string
  icon: ReactNode
  danger?: boolean
  onClick?: (event: MouseEvent<HTMLAnchorElement>) => void
}) {
  return (
    <Link to={to} className={`action-link${danger ? ' action-link-danger' : ''}`} aria-label={label} onClick={onClick}>
      {icon}
      {text}
    </Link>
  )
}

/** `pageHref` builds a page's address (the narrative list's by default). */
export function Pagination({
  page,
  pages,
  pageHref = (n) => `${LIST_PATH}?page=${n}`,
}: {
  page: number
  pages: number
  pageHref?: (page: number) => string
}) {
  return (
    <nav className="pagination" aria-label="Pagination">
      <PageLink page={page - 1} pages={pages} label="Previous" pageHref={pageHref} />
      <span>
        Page {page} of {pages}
      </span>
      <PageLink page={page + 1} pages={pages} label="Next" pageHref={pageHref} />
    </nav>
  )
}

function PageLink({ page, pages, label, pageHref }: { page: number; pages: number; label: string; pageHref: (page: number) => string }) {
  if (page < 1 || page > pages) {
    return (
      // eslint-disable-next-line jsx-a11y/anchor-is-valid -- a link without href is the disabled state
      <a role="link" aria-disabled="true" className="button button-secondary">
        {label}
      </a>
    )
  }
  return (
    <Link to={pageHref(page)} className="button button-secondary" rel={label === 'Next' ? 'next' : 'prev'}>
      {label}
    </Link>
  )
}

export function DeleteDialog({
  narrative,
  onClose,
  onConfirm,
}: {
  narrative: Row | null
  onClose: () => void
  onConfirm: (id: string) => void
}) {
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
      {narrative ? <NarrativeIdentity narrative={{ ...narrative, opening: narrative.preview }} /> : null}
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

/** Which narrative this is, as its owner would tell it apart, asked before a deletion. */
export function NarrativeIdentity({
  narrative,
}: {
  narrative: { company: string; tone: string; createdAt: Date; funder: string | null; opening: string; owner?: { name: string } | null }
}) {
  const timeZone = useLocalTimeZone()
  const locale = useLocale()
  return (
    <dl className="narrative-identity">
      <dt>{spell('Organization', locale.variety)}</dt>
      <dd>{narrative.company}</dd>
      {narrative.owner ? (
        <>
          <dt>Owner</dt>
          <dd>{narrative.owner.name}</dd>
        </>
      ) : null}
      <dt>Written</dt>
      <dd>
        {formatDateTime(narrative.createdAt, timeZone, locale)}, {narrative.tone.toLowerCase()} tone
      </dd>
      {narrative.funder ? (
        <>
          <dt>For</dt>
          <dd>{narrative.funder}</dd>
        </>
      ) : null}
      {narrative.opening ? (
        <>
          <dt>Begins</dt>
          <dd>“{narrative.opening}”</dd>
        </>
      ) : null}
    </dl>
  )
}

/** Hidden from screen readers: the links are labelled. */
function LineIcon({ children }: { children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
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

function RegenerateIcon() {
  return (
    <LineIcon>
      <path d="M21 12a9 9 0 0 1-15.5 6.2L3 16" />
      <path d="M3 12a9 9 0 0 1 15.5-6.2L21 8" />
      <path d="M21 3v5h-5" />
      <path d="M3 21v-5h5" />
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
