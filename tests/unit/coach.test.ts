import { checkEvidence } from '~/server/coach/check.server'
import { coachSummary, type EvidenceCheck, type FlagKind } from '~/shared/evidence'

// The evidence coach's rules (docs/decisions/032), each on real-looking lines: one a reviewer would
// question, and one it would not.

const metric = (line: string, extra: Parameters<typeof checkEvidence>[0] = {}) =>
  checkEvidence({ impactMetrics: line, ...extra }).metrics[0]
const kinds = (check: { flags: { kind: FlagKind }[] }) => check.flags.map((flag) => flag.kind)
const flagsOf = (check: EvidenceCheck, kind: FlagKind) => check.flags.filter((candidate) => candidate.kind === kind)
const flag = (check: { flags: { kind: FlagKind; words: string; suggestion: string }[] }, kind: FlagKind) =>
  check.flags.find((candidate) => candidate.kind === kind)

describe('typing each metric line', () => {
  it.each([
    ['412 adults tutored in 2023', 'output'],
    ['61,000 people served in 2023', 'output'],
    ['Served hundreds of families', 'output'],
    ['71% moved up two reading levels in 2023', 'outcome'],
    ['Attendance rose from 92% to 95.5% between 2022 and 2024', 'outcome'],
    ['190 moved into work or further study within a year', 'outcome'],
    ['310 volunteers gave 18,000 hours in 2023', 'input'],
    ['$27.4 million in research funding since 2015', 'funding'],
    ['1 in 5 children in Lane County face hunger (USDA, 2023)', 'need'],
    ['Winner of the 2023 Ashden Award', 'context'],
    // Lines the first users met, each typed wrong before.
    ['2021 was our 36th year', 'context'],
    ['88% of parents said their child was more confident', 'outcome'],
    ['In 2023 we received a £150,000 grant from the city council', 'funding'],
    ['We always have a waiting list', 'input'],
    ['One in five adults cannot read a medicine label', 'need'],
    // And from a review: money given out is delivered, attendance is delivered.
    ['We gave out £20,000 in hardship grants', 'output'],
    ['Half of participants attended all 10 sessions', 'output'],
  ])('“%s” is %s, with a one-line reason', (line, type) => {
    const typed = metric(line)
    expect(typed.type).toBe(type)
    expect(typed.reason).toMatch(/\S.*[.]$/)
    expect(typed.reason.split(/\n/)).toHaveLength(1)
  })
})

describe('the flags on a metric line', () => {
  it('asks for the period of a figure that has none, in the line’s own words', () => {
    const flagged = flag(metric('61,000 people served'), 'no-period')!
    expect(flagged.words).toBe('61,000')
    expect(flagged.suggestion).toContain('“61,000 people served, in [which year or period?]”')
    for (const line of [
      '61,000 people served in 2023',
      '4,300 meal packs each week during the school year',
      '48,000 lamps sold since 2017',
      '212,000 visits in fiscal year 2024',
    ])
      expect(kinds(metric(line)), line).not.toContain('no-period')
  })

  it('asks what a change is measured against', () => {
    const flagged = flag(metric('Attendance up 18% in 2024'), 'no-baseline')!
    expect(flagged.words).toBe('up 18%')
    expect(flagged.suggestion).toContain('from [the figure before]')
    expect(kinds(metric('Attendance rose from 92% to 95.5% between 2022 and 2024'))).not.toContain('no-baseline')
    expect(kinds(metric('Attendance up 18% on the year before, in 2024'))).not.toContain('no-baseline')
  })

  it('asks of how many a percentage is', () => {
    const flagged = flag(metric('71% moved up two reading levels in 2023'), 'no-denominator')!
    expect(flagged.words).toBe('71%')
    expect(flagged.suggestion).toContain('71% ([how many] of [how many]) moved up two reading levels')
    for (const line of [
      '71% of 412 adults moved up two reading levels in 2023',
      '1,093 (16%) exceeded at least one federal health limit in 2022',
      'Attendance up 18% on the year before, in 2024',
    ])
      expect(kinds(metric(line)), line).not.toContain('no-denominator')
  })

  it('says when a count is presented as a change', () => {
    const flagged = flag(metric('Changed the lives of 500 families in 2024'), 'output-as-outcome')!
    expect(flagged.words).toBe('Changed')
    expect(flagged.suggestion).toContain('[how many] of the 500 families')
    expect(kinds(metric('500 families kept their homes a year later, in 2024'))).not.toContain('output-as-outcome')
  })

  it('names a vague quantity and asks for the number in its place', () => {
    const flagged = flag(metric('Served hundreds of families across the county'), 'vague')!
    expect(flagged.words).toBe('hundreds of')
    expect(flagged.suggestion).toContain('“Served [how many] families across the county”')
    expect(flag(metric('Significantly improved attendance in 2024'), 'vague')!.suggestion).toContain('[by how much, from what to what?]')
    expect(kinds(metric('Served 640 families across the county in 2024'))).not.toContain('vague')
  })

  it('asks a need statistic for its source, year and place', () => {
    const flagged = flag(metric('1 in 5 children face hunger'), 'need-without-source')!
    expect(flagged.words).toBe('1 in 5')
    expect(flagged.suggestion).toMatch(/\[source\].*\[year\]|in \[place\]/)
    expect(kinds(metric('1 in 5 children in Lane County face hunger (USDA, 2023)'))).not.toContain('need-without-source')
  })

  it('never supplies a number: a suggestion asks for one in brackets', () => {
    const check = checkEvidence({
      impactMetrics: '61,000 people served\n71% moved up two levels\nAttendance up 18%\nServed hundreds of families',
    })
    const numbersIn = (text: string) => new Set(text.match(/\d[\d,.]*/g) ?? [])
    const given = numbersIn(check.metrics.map((line) => line.text).join(' '))
    for (const { flags } of check.metrics)
      for (const { suggestion } of flags) for (const number of numbersIn(suggestion)) expect(given).toContain(number)
  })
})

describe('the form as a whole', () => {
  it('names a programme that no result speaks of', () => {
    const check = checkEvidence({
      keyPrograms: 'One-to-one tutoring for adults\nFamily literacy nights\nA mobile library for rural towns',
      impactMetrics: '412 adults tutored in 2023\n2,100 books lent by the mobile library in 2023',
    })
    const flags = flagsOf(check, 'programme-without-result')
    expect(flags.map((candidate) => candidate.words)).toEqual(['Family literacy nights'])
    expect(flags[0].suggestion).toContain('took part in family literacy nights in [year]')
    expect(flags[0].field).toBe('keyPrograms')
  })

  it('names a programme without the "We run" before it', () => {
    const check = checkEvidence({
      keyPrograms: 'We run 14 neighborhood pantries and a mobile market.',
      impactMetrics: 'In 2023 we distributed 4.2 million pounds of food and served 38,000 individuals.',
    })
    const flagged = flag(check, 'programme-without-result')!
    expect(flagged.words).toBe('14 neighborhood pantries and a mobile market')
    expect(flagged.suggestion).toContain('“[how many] [people] took part in 14 neighborhood pantries and a mobile market in [year]')
  })

  it('asks what changed for the people a line counts, not for its year or its amount of things', () => {
    const check = checkEvidence({ impactMetrics: 'In 2023 we distributed 4.2 million pounds of food and served 38,000 individuals.' })
    expect(flag(check, 'no-outcome')!.suggestion).toContain('“[how many] of the 38,000 individuals [what changed for them] by [when]”')
    expect(flag(checkEvidence({ impactMetrics: '2.8 million pounds of food distributed in 2023' }), 'no-outcome')!.suggestion).toContain(
      '[how many] of the 2.8 million pounds of food',
    )
  })

  it('says when every figure counts activity and none says what changed', () => {
    const outputs = checkEvidence({ impactMetrics: '412 adults tutored in 2023\n2,100 books lent in 2023' })
    expect(flag(outputs, 'no-outcome')!.suggestion).toContain('[how many] of the 412 adults tutored')
    expect(
      kinds(checkEvidence({ impactMetrics: '412 adults tutored in 2023\n71% of 412 adults moved up a reading level in 2023' })),
    ).not.toContain('no-outcome')
  })

  it('reads the need statistics of the audience and the places too', () => {
    const check = checkEvidence({ targetAudience: 'Children in kindergarten to third grade (68% qualify for free school meals).' })
    expect(check.flags).toContainEqual(expect.objectContaining({ kind: 'need-without-source', words: '68%', field: 'targetAudience' }))
  })

  it('asks a need statistic for its source in any field, the programmes and the story included', () => {
    const line = 'One in five adults in our county cannot read a medicine label.'
    for (const field of ['missionStatement', 'keyPrograms', 'targetAudience', 'geographicFocus', 'successStory'] as const)
      expect(checkEvidence({ [field]: line }).flags, field).toContainEqual(
        expect.objectContaining({ kind: 'need-without-source', words: 'One in five', field }),
      )
  })

  it('asks no source of an age in a story', () => {
    expect(checkEvidence({ successStory: 'Aged 19, Sam had been in prison twice.' }).flags).toEqual([])
  })

  it('takes programmes only from lines that name one: "Name: what it does", "We run…", or a name alone', () => {
    const check = checkEvidence({
      keyPrograms: 'Older Friends: we match an older person with a volunteer.\nOutings can be as simple as a walk in the park.',
      impactMetrics: '120 people took part in 2024',
    })
    const flags = flagsOf(check, 'programme-without-result')
    expect(flags.map((candidate) => candidate.words)).toEqual(['Older Friends'])
    expect(flags[0].suggestion).toBe(
      'Add a result for it: “[how many] [people] took part in Older Friends in [year], and [what changed for them]”.',
    )
  })

  it('counts in its summary exactly the lines it shows and the questions it asks', () => {
    const check = checkEvidence({ impactMetrics: '61,000 people served\nAttendance up 18% in 2024\n2021 was our 36th year' })
    const questions = check.metrics.flatMap((metric) => metric.flags).length + check.flags.length
    expect(coachSummary(check)).toBe(`3 lines of evidence read; ${questions} questions a reviewer would ask.`)
    expect(coachSummary({ metrics: [], flags: [] })).toBe('No figures to check yet.')
  })

  it('answers the same for the same fields, and nothing for none', () => {
    const fields = { impactMetrics: '61,000 people served\nAttendance up 18%', keyPrograms: 'Food pantry' }
    expect(checkEvidence(fields)).toEqual(checkEvidence({ ...fields }))
    expect(checkEvidence({})).toEqual<EvidenceCheck>({ metrics: [], flags: [] })
  })

  it('reads a bounded number of lines, each cut, whatever is pasted', () => {
    const pasted = Array.from({ length: 400 }, (_, index) => `${index} families served with many meals ${'x'.repeat(400)}`).join('\n')
    const check = checkEvidence({ impactMetrics: pasted, keyPrograms: pasted, targetAudience: pasted })
    expect(check.metrics.length).toBeLessThanOrEqual(30)
    for (const line of check.metrics) expect(line.text.length).toBeLessThanOrEqual(330)
  })
})
