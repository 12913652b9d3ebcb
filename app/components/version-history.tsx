import { Form, Link } from 'react-router'
import { SubmitButton } from '~/components/forms'
import { formatDateTime, useLocalTimeZone } from '~/shared/dates'

export type VersionSummary = { id: string; source: string; createdAt: string | Date }
export type WordDiffView = { text: string; change: 'same' | 'removed' | 'added' }
export type SelectedVersion = VersionSummary & { text: string; diff: WordDiffView[]; current: boolean }

const SOURCE_LABELS: Record<string, string> = { generated: 'Generated', edited: 'Edited', restored: 'Restored' }

/**
 * The narrative's versions, newest first. Choosing one (a link: no JavaScript needed) shows it and
 * how the current text differs from it, and offers to restore it.
 */
export function VersionHistory({
  basePath,
  versions,
  selected,
}: {
  basePath: string
  versions: VersionSummary[]
  selected: SelectedVersion | null
}) {
  const timeZone = useLocalTimeZone()
  return (
    <section className="section-block" aria-labelledby="versions-title" id="versions">
      <h2 id="versions-title">Versions</h2>
      {versions.length ? (
        <ol className="version-list">
          {versions.map((version, index) => (
            <li key={version.id}>
              <Link
                to={`${basePath}?version=${encodeURIComponent(version.id)}#versions`}
                preventScrollReset
                aria-current={selected?.id === version.id ? 'true' : undefined}
              >
                {SOURCE_LABELS[version.source] ?? version.source}, {formatDateTime(version.createdAt, timeZone)}
              </Link>
              {index === 0 ? <span className="version-tag"> (current)</span> : null}
            </li>
          ))}
        </ol>
      ) : (
        <p>No versions yet: the first is saved when the narrative is written.</p>
      )}
      {selected ? <SelectedVersionView basePath={basePath} version={selected} timeZone={timeZone} /> : null}
    </section>
  )
}

function SelectedVersionView({ basePath, version, timeZone }: { basePath: string; version: SelectedVersion; timeZone: string }) {
  const label = `${SOURCE_LABELS[version.source] ?? version.source} version of ${formatDateTime(version.createdAt, timeZone)}`
  return (
    <div className="version-view">
      <h3>{label}</h3>
      <p className="version-text">{version.text}</p>
      {version.current ? (
        <p>This is the current text.</p>
      ) : (
        <>
          <h4>From this version to the current text</h4>
          <p className="field-hint">Removed words are struck through; added words are underlined.</p>
          <WordDiff parts={version.diff} />
          <Form method="post" action={basePath} className="actions">
            <input type="hidden" name="intent" value="restore" />
            <input type="hidden" name="versionId" value={version.id} />
            <SubmitButton pendingText="Restoring..." className="button button-primary">
              Restore this version
            </SubmitButton>
            <Link to={`${basePath}#versions`} className="button button-secondary" preventScrollReset>
              Close
            </Link>
          </Form>
        </>
      )}
    </div>
  )
}

/** Removed and added runs are struck through or underlined (not coloured alone), and named for screen readers. */
function WordDiff({ parts }: { parts: WordDiffView[] }) {
  return (
    <p className="word-diff">
      {parts.map((part, index) =>
        part.change === 'same' ? (
          part.text
        ) : part.change === 'removed' ? (
          <del key={index}>
            <span className="visually-hidden">[removed: </span>
            {part.text}
            <span className="visually-hidden">]</span>
          </del>
        ) : (
          <ins key={index}>
            <span className="visually-hidden">[added: </span>
            {part.text}
            <span className="visually-hidden">]</span>
          </ins>
        ),
      )}
    </p>
  )
}
