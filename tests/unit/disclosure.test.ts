import { aiUseStatement, wordsChanged } from '~/shared/disclosure'
import { DRAFTER_ENGINE, MANUAL_ENGINE } from '~/shared/engines'

// The statement a writer pastes into a funder's AI-use declaration: it must be true of how the text was made.

const FIRST = 'Harvest Table Food Bank fed 38,000 people in 2023. Its volunteers drive three routes each week.'
const supported = (count: number) => Array.from({ length: count }, () => ({ supported: true }))

describe('wordsChanged', () => {
  it('counts words added, removed or replaced over the longer text, and a sentence moved as no change', () => {
    expect(wordsChanged('we fed people this year', 'we fed families this year')).toBeCloseTo(0.2)
    expect(wordsChanged('one two three four', 'one two')).toBe(0.5)
    expect(wordsChanged('First sentence here. Second one there.', 'Second one there. First sentence here.')).toBe(0)
    expect(wordsChanged(FIRST, FIRST)).toBe(0)
    expect(wordsChanged('', '')).toBe(0)
    expect(wordsChanged('', 'New words.')).toBe(1)
    // A figure is one word: 38,000 changed to 38,500 is one word of four.
    expect(wordsChanged('we fed 38,000 people', 'we fed 38,500 people')).toBe(0.25)
  })
})

describe('aiUseStatement', () => {
  it('says a model wrote the first draft, as generative AI, and never that no AI was used', () => {
    const statement = aiUseStatement({ engine: 'gpt-4o-mini', firstText: FIRST, currentText: FIRST, claims: supported(2) })
    expect(statement).toBe(
      'The first draft of this text was written in Impact Narrative Studio by the language model gpt-4o-mini (generative AI), from the organisation’s own inputs. ' +
        'People have not changed its words since. ' +
        'Each of its 2 statements of fact (figures, names, dates) was checked against the organisation’s inputs and found there.',
    )
    expect(statement).not.toMatch(/no language model|without AI|no AI/i)
  })

  it('says the offline drafter used no language model, and never calls its text AI-written', () => {
    const statement = aiUseStatement({ engine: DRAFTER_ENGINE, firstText: FIRST, currentText: FIRST, claims: supported(1) })
    expect(statement).toContain('by the offline drafter, from the organisation’s own words, with no language model.')
    expect(statement).toContain('Its one statement of fact was checked against the organisation’s inputs and found there.')
    expect(statement).not.toMatch(/generative AI|AI-written|written by AI/i)
  })

  it('says people wrote a text saved by hand', () => {
    expect(aiUseStatement({ engine: MANUAL_ENGINE, firstText: FIRST, currentText: `${FIRST} More.`, claims: [] })).toBe(
      'This text was written by people, with no language model, and kept in Impact Narrative Studio. ' +
        'People have changed 6% of its words since it was saved. ' +
        'It states no figures or names for the organisation that needed checking.',
    )
  })

  it('gives the share people changed, never 0% for an edited text, and says so when the first text was not kept', () => {
    const long = `${FIRST} `.repeat(20).trim()
    expect(aiUseStatement({ engine: 'm', firstText: long, currentText: `${long} Yes.`, claims: [] })).toContain(
      'People have since changed under 1% of its words.',
    )
    expect(aiUseStatement({ engine: 'm', firstText: 'we fed people', currentText: 'we fed families', claims: [] })).toContain(
      'People have since changed 33% of its words.',
    )
    expect(aiUseStatement({ engine: 'm', firstText: null, currentText: FIRST, claims: [] })).toContain(
      'Its first text was not kept, so how much people changed since is not known.',
    )
  })

  it('counts the statements not found in the inputs, flagged for the writer', () => {
    const claims = [{ supported: true }, { supported: false }, { supported: false }]
    expect(aiUseStatement({ engine: 'm', firstText: FIRST, currentText: FIRST, claims })).toContain(
      'Each of its 3 statements of fact (figures, names, dates) was checked against the organisation’s inputs; 2 were not found there and are flagged for the writer to confirm.',
    )
    expect(aiUseStatement({ engine: 'm', firstText: FIRST, currentText: FIRST, claims: claims.slice(0, 2) })).toContain(
      '; one was not found there and is flagged for the writer to confirm.',
    )
  })
})
