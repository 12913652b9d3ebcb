import { CopyButton } from '~/components/copy-button'

/** How the text was made, for a funder that asks how AI was used: plain text to read and select, copied with JavaScript. */
export function AiUseStatement({ statement }: { statement: string }) {
  return (
    <section className="section-block" aria-labelledby="ai-use-title" id="ai-use">
      <h2 id="ai-use-title">How this text was made</h2>
      <p className="field-hint">For a funder that asks whether and how AI was used. Read it, then paste it where their form asks.</p>
      <p>{statement}</p>
      <div className="actions">
        <CopyButton text={statement} label="Copy statement" />
      </div>
    </section>
  )
}
