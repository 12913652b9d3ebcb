import { Form, Link } from 'react-router'
import { SubmitButton } from '~/components/forms'
import { formatDateTime } from '~/shared/dates'
import { useLocalTimeZone } from '~/hooks/use-local-time-zone'
import { useLocale } from '~/hooks/use-locale'
import { EDIT_SESSION_MS } from '~/shared/narrative-text'

export type VersionSummary = { id: string; source: string; createdAt: string | Date }
export type WordDiffView = { text: string; change: 'same' | 'removed' | 'added' }
/** `diff` is null when the two texts are too different to compare word by word. */
export type SelectedVersion = VersionSummary & { text: string; diff: WordDiffView[] | null; current: boolean }

const SOURCE_LABELS: Record<string, string> = { generated: 'Generated', edited: 'Edited', restored: 'Restored' }

export function VersionHistory({
  basePath,
  versions,
  selected,
  currentText,
}: {
  basePath: string
  versions: VersionSummary[]
  selected: SelectedVersion | null
  currentText: string
}) {
  const timeZone = useLocalTimeZone()
  const locale = useLocale()
  return (
    <section className="section-block" aria-labelledby="versions-title" id="versions">
      <h2 id="versions-title">Versions</h2>
      <p className="field-hint">Saves made within {EDIT_SESSION_MS / 60_000} minutes of each other are kept as one version.</p>
      {versions.length ? (
        <ol className="version-list">
          {versions.map((version, index) => (
            <li key={version.id}>
              <Link
                to={`${basePath}?version=${encodeURIComponent(version.id)}#versions`}
                preventScrollReset
                aria-current={selected?.id === version.id ? 'true' : undefined}
              >
                {SOURCE_LABELS[version.source] ?? version.source}, {formatDateTime(version.createdAt, timeZone, locale)}
              </Link>
              {index === 0 ? <span className="version-tag"> (current)</span> : null}
            </li>
          ))}
        </ol>
      ) : (
        <p>No versions yet: the first is saved when the narrative is written.</p>
      )}
      {selected ? <SelectedVersionView basePath={basePath} version={selected} currentText={currentText} timeZone={timeZone} /> : null}
    </section>
  )
}

function SelectedVersionView({
  basePath,
  version,
  currentText,
  timeZone,
}: {
  basePath: string
  version: SelectedVersion
  currentText: string
  timeZone: string
}) {
  const locale = useLocale()
  const label = `${SOURCE_LABELS[version.source] ?? version.source} version of ${formatDateTime(version.createdAt, timeZone, locale)}`
  return (
    <div className="version-view">
      <h3>{label}</h3>
      {version.current || version.diff ? <p className="version-text">{version.text}</p> : null}
      {version.current ? (
        <p>This is the current text.</p>
      ) : (
        <>
          {version.diff ? (
            <>
              <h4>From this version to the current text</h4>
              <p className="field-hint">Removed words are struck through; added words are underlined.</p>
              <WordDiff parts={version.diff} />
            </>
          ) : (
            <SideBySide versionText={version.text} currentText={currentText} />
          )}
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

/** Texts that differ in most of their words read better whole, one beside the other, than as a comparison. */
function SideBySide({ versionText, currentText }: { versionText: string; currentText: string }) {
  return (
    <>
      <p>These two texts are too different to compare word by word, so here they are side by side.</p>
      <div className="side-by-side">
        <section aria-labelledby="side-version-title">
          <h4 id="side-version-title">This version</h4>
          <p className="version-text">{versionText}</p>
        </section>
        <section aria-labelledby="side-current-title">
          <h4 id="side-current-title">The current text</h4>
          <p className="version-text">{currentText}</p>
        </section>
      </div>
    </>
  )
}

/** Struck through or underlined, not coloured alone, and named for screen readers. */
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
