import { findClaims } from '~/server/narratives/claims.server'
import { findConflicts } from '~/server/narratives/consistency.server'

// Figures that disagree across an application's texts, and the ones that only seem to.

const INPUTS = {
  company: 'Harvest Table Food Bank',
  impactMetrics: 'In 2023 we served 212 families and moved 4,500 pounds of produce each week. 85% of participants ate better.',
}

/** The narrative first, then each answer at its place; the conflicts of each, as the page shows them. */
function conflictsOf(narrative: string, ...answers: string[]) {
  const texts = [narrative, ...answers].map((text, index) => ({
    question: index === 0 ? null : index - 1,
    text,
    claims: findClaims(text, INPUTS),
  }))
  const found = findConflicts(texts, INPUTS)
  return texts.map(({ question }) =>
    found.get(question)?.map(({ figure, elsewhere }) => `${figure} ≠ ${elsewhere.map((other) => other.figure).join(', ')}`),
  )
}

describe('findConflicts', () => {
  it('flags the same count stated differently, beside both, with what the inputs say', () => {
    const texts = [
      { question: null, text: 'We served 212 families in 2023.', claims: findClaims('We served 212 families in 2023.', INPUTS) },
      {
        question: 0,
        text: 'Last year we served 210 local families.',
        claims: findClaims('Last year we served 210 local families.', INPUTS),
      },
    ]
    const found = findConflicts(texts, INPUTS)
    expect(found.get(null)).toEqual([
      { figure: '212 families', elsewhere: [{ question: 0, figure: '210 local families' }], inputs: ['212 families'] },
    ])
    expect(found.get(0)).toEqual([
      { figure: '210 local families', elsewhere: [{ question: null, figure: '212 families' }], inputs: ['212 families'] },
    ])
  })

  it('compares shares with shares, sums with sums, and what is measured by what it measures', () => {
    expect(
      conflictsOf(
        '85% of participants ate better, and 4,500 pounds of produce go out each week.',
        '58% of participants ate better.',
        'Every week we move 4,000 pounds of produce to the pantries.',
      ),
    ).toEqual([
      ['85% of participants ≠ 58% of participants', '4,500 pounds of produce ≠ 4,000 pounds of produce'],
      ['58% of participants ≠ 85% of participants'],
      ['4,000 pounds of produce ≠ 4,500 pounds of produce'],
    ])
  })

  it('leaves alone other years, targets, other periods, approximations, spans of time and figures within one text', () => {
    expect(
      conflictsOf(
        'We served 212 families in 2023, up from 180 families in 2022. Over 3 years we will reach 300 families.',
        'In 2022 we served 180 families.',
        'By 2027 we expect to serve 300 families, and more than 200 families come every month.',
        'The project runs for 2 years and serves 212 families.',
      ),
    ).toEqual([[], [], [], []])
  })
})
