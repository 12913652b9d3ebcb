import { coverageOf, findAlignment, type BriefAsWritten } from '~/server/narratives/alignment.server'
import { claimInputsOf, findClaims, type ClaimInputs } from '~/server/narratives/claims.server'
import { UnansweredQuestionError } from '~/server/generation/engines/contract.server'
import { answerQuestion } from '~/server/generation/variants/question-answer.server'
import { type Answer } from '~/server/generation/engines/contract.server'
import { draftNarrative } from '~/server/generation/drafter/drafter.server'
import { countWords } from '~/shared/text'
import { FOOD_BANK, YOUTH_ORCHESTRA } from '../fixtures/organisations'

const LANE: BriefAsWritten = {
  funder: 'Lane County Community Foundation',
  amount: '$25,000',
  priorities: [
    'Food security: reducing hunger among families, children and older adults',
    "Rural reach: services that reach residents of the county's rural towns",
    'Measurable outcomes: clear evidence of the difference the work makes',
    'Sustainability: a credible plan to continue the work after the grant ends',
    'Community voice: programs shaped by people with lived experience',
  ],
  terms: ['food security', 'lived experience'],
  maxWords: 500,
  questions: [],
}

const inputs: ClaimInputs = { ...FOOD_BANK.input, funderName: LANE.funder, amountRequested: '$25,000' }

function align(text: string, brief = LANE, given = inputs) {
  return findAlignment(text, given, brief, findClaims(text, claimInputsOf(given)))
}

describe('findAlignment', () => {
  it('answers a priority from the inputs with the sentences that speak to it and the fields behind them', () => {
    const [food] = align('Lane County Food Share exists to make sure no one in Lane County goes hungry. Our volunteers are kind.')
    expect(food).toEqual({
      priority: LANE.priorities[0],
      state: 'answered',
      sentences: ['Lane County Food Share exists to make sure no one in Lane County goes hungry.'],
      fields: expect.arrayContaining(['missionStatement', 'keyPrograms', 'targetAudience']),
    })
  })

  it('shows a priority the text asserts without inputs behind it as unsupported, with what to do', () => {
    const [, , , sustainability] = align('We have a sustainability plan: diversified income will continue the work after the grant ends.')
    expect(sustainability).toMatchObject({ state: 'unsupported', fields: [] })
    expect(sustainability.gap).toBe(
      `The text speaks to “${LANE.priorities[3]}”, but your inputs give nothing behind it: add the facts to Key Programs and Services, or take it out of the text.`,
    )
  })

  it('shows a priority answered only with facts the inputs do not hold as unsupported', () => {
    const [, rural] = align('Our mobile pantry reaches 94 rural towns.')
    expect(rural.state).toBe('unsupported')
    expect(rural.gap).toMatch(/state what your inputs do not \(94\)/)
  })

  it("reads a priority and a text of the words an object's own properties have", () => {
    const brief = { ...LANE, priorities: ['Constructor toString and __proto__ hasOwnProperty valueOf'] }
    const [priority] = align('Our constructor toString __proto__ valueOf hasOwnProperty program.', brief)
    expect(priority.state).toBe('unsupported')
    expect(priority.gap).toMatch(/add the facts to Key Programs and Services/)
  })

  it('tells a gap the inputs could fill apart from one they cannot', () => {
    const alignment = align('Lane County Food Share exists to make sure no one in Lane County goes hungry.')
    expect(alignment[1]).toMatchObject({ state: 'missing', sentences: [] })
    expect(alignment[1].gap).toMatch(/^Your inputs speak to “Rural reach[^”]*” \(.*Geographic Focus.*\), but the text does not answer it/)
    expect(alignment[4].gap).toMatch(/^The call asks about “Community voice[^”]*”; your inputs say nothing about it\./)
  })

  it("counts figures of the organisation's results as evidence, and ignores the funder's own name", () => {
    const alignment = align('In 2023 we distributed 2.8 million pounds of food. We thank the Lane County Community Foundation.')
    expect(alignment[2]).toMatchObject({
      state: 'answered',
      sentences: ['In 2023 we distributed 2.8 million pounds of food.'],
      fields: ['impactMetrics'],
    })
    expect(alignment[4].state).toBe('missing')
  })

  it("finds what the offline drafter writes from a food bank's inputs answered, and what they lack as a gap", () => {
    const alignment = align(draftNarrative(FOOD_BANK.input))
    expect(alignment.slice(0, 3).map((item) => item.state)).toEqual(['answered', 'answered', 'answered'])
    expect(alignment[4]).toMatchObject({ state: 'missing', fields: [] })
    expect(coverageOf(alignment)).toBeGreaterThanOrEqual(0.6)
  })

  it("finds an orchestra's narrative answering none of a food funder's priorities from its inputs", () => {
    const orchestra = { ...YOUTH_ORCHESTRA.input, funderName: LANE.funder }
    const alignment = align(draftNarrative(YOUTH_ORCHESTRA.input), LANE, orchestra)
    expect(alignment[0].state).not.toBe('answered')
    expect(alignment[1].state).not.toBe('answered')
  })
})

describe('coverageOf', () => {
  it('is the share answered, in hundredths, and null without priorities', () => {
    const item = (state: 'answered' | 'missing') => ({ priority: 'p', state, sentences: [], fields: [] })
    expect(coverageOf([item('answered'), item('missing'), item('missing')])).toBe(0.33)
    expect(coverageOf([])).toBeNull()
  })
})

describe('answerQuestion (the offline answer to one question of a call)', () => {
  const narrative = draftNarrative(FOOD_BANK.input)
  const textOf = (answer: Answer) => ('text' in answer ? answer.text : '')

  it("keeps the narrative's sentences that speak to the question within the limit, opening on the question's subject", () => {
    const question = 'How will you measure the difference your project makes? Give figures.'
    const answer = textOf(answerQuestion(narrative, question, { unit: 'words', max: 60 }))
    expect(countWords(answer)).toBeLessThanOrEqual(60)
    expect(answer).toContain('The organization distributed 2.8 million pounds of food in 2023.')
    const [opening, ...rest] = answer.split(/(?<=\.)\s+/)
    for (const sentence of [opening, ...rest]) expect(narrative).toContain(sentence)
    expect(/\d/.test(opening), opening).toBe(true)
    const places = rest.map((sentence) => narrative.indexOf(sentence))
    expect(places).toEqual([...places].sort((a, b) => a - b))
  })

  it('gives no answer, not a padded one, when nothing in the narrative speaks to the question', () => {
    // The question the first users asked: the inputs say nothing of involving the community in planning.
    expect(answerQuestion(narrative, 'How have you involved your community in planning?', { unit: 'words', max: 150 })).toEqual({
      unanswered: true,
    })
  })

  it('tells the person what the unanswered question needs', () => {
    expect(new UnansweredQuestionError('How have you involved your community in planning?').message).toBe(
      'Nothing in your narrative answers “How have you involved your community in planning?”. Add what you do about it to your inputs (Key Programs and Services, or Impact Metrics), write the narrative again, then answer the question.',
    )
  })

  it('says so when not one sentence that answers fits the limit', () => {
    expect(answerQuestion(narrative, 'How much food did you distribute?', { unit: 'characters', max: 5 })).toEqual({ unfit: true })
  })
})
