import { readCall } from '~/server/funders/call-reading.server'
import { FUNDER_LIMITS } from '~/shared/funder-schema'

// Plain code reading a call the way funders write them: headings in Markdown or as short lines,
// bullets, numbers, tables, limits said several ways, dates in several formats.

describe('readCall', () => {
  it('reads whether a character limit counts spaces, from the question or once for the whole call', async () => {
    const eachSays = await readCall(
      [
        'Application questions',
        '1. Summarise your project. (max 300 characters with spaces)',
        '2. What difference will it make? (max 1,500 characters without spaces)',
        '3. How will the work go on after the grant? (max 100 words)',
      ].join('\n'),
    )
    expect(eachSays.questions).toEqual([
      { text: 'Summarise your project.', maxCharacters: 300 },
      { text: 'What difference will it make?', maxCharacters: 1500, withoutSpaces: true },
      { text: 'How will the work go on after the grant?', maxWords: 100 },
    ])

    const callSays = await readCall(
      [
        'Application questions',
        'Keep each answer within its limit. The form counts characters, spaces are not counted.',
        '1. Describe your food program today. (1,200 characters)',
        '2. How will this grant increase access to food? (150 words)',
      ].join('\n'),
    )
    expect(callSays.questions).toEqual([
      { text: 'Describe your food program today.', maxCharacters: 1200, withoutSpaces: true },
      { text: 'How will this grant increase access to food?', maxWords: 150 },
    ])

    // Said of every answer on a line with a limit, the rule holds for questions with limits of their own too.
    const everyAnswer = await readCall(
      [
        'Application questions',
        'Each answer is limited to 1,000 characters, excluding spaces.',
        '1. What will you do? (500 characters)',
      ].join('\n'),
    )
    expect(everyAnswer.questions).toEqual([{ text: 'What will you do?', maxCharacters: 500, withoutSpaces: true }])

    // The question's own rule wins over the call's.
    const both = await readCall(
      ['Questions', 'Character limits include spaces.', '1. What will you do? (800 characters, excluding spaces)'].join('\n'),
    )
    expect(both.questions).toEqual([{ text: 'What will you do?', maxCharacters: 800, withoutSpaces: true }])
  })

  it('reads priorities under a plain heading, questions with limits said several ways, and stops at the next section', async () => {
    const reading = await readCall(
      [
        'Riverbend Trust',
        '',
        'What we look for',
        '- Projects led by young people',
        '- Work in the Riverbend valley',
        '',
        'Eligibility',
        'Registered charities only.',
        '',
        'Application questions',
        '1. What will you do? (up to 1,200 characters)',
        '2. Who will benefit, and how will you know?',
        'Maximum 150 words',
        '3. Tell us about your organisation in no more than 200 words.',
        '',
        'Your whole application must not exceed 800 words. Deadline: 5th June 2027.',
      ].join('\n'),
    )
    expect(reading).toMatchObject({
      name: 'Riverbend Trust',
      priorities: [{ text: 'Projects led by young people' }, { text: 'Work in the Riverbend valley' }],
      questions: [
        { text: 'What will you do?', maxCharacters: 1200 },
        { text: 'Who will benefit, and how will you know?', maxWords: 150 },
        { text: 'Tell us about your organisation in no more than 200 words.', maxWords: 200 },
      ],
      maxWords: 800,
      deadline: '2027-06-05',
    })
  })

  it('finds what is preferred in prose when the call has no list of priorities', async () => {
    const reading = await readCall(
      'The fund supports local charities. Priority will be given to projects that reduce loneliness among older people. We are especially interested in work with carers.',
    )
    expect(reading.priorities).toEqual([{ text: 'Projects that reduce loneliness among older people' }, { text: 'Work with carers' }])
  })

  it.each([
    ['Applications close 2027-01-31.', '2027-01-31'],
    ['The deadline is January 31, 2027 at noon.', '2027-01-31'],
    ['Closing date: 31 Jan 2027', '2027-01-31'],
    ['Submit by 30 February 2027.', undefined],
    ['Founded on 3 March 1990.', undefined],
  ])('reads the deadline in "%s"', async (text, deadline) => {
    expect((await readCall(text)).deadline).toBe(deadline)
  })

  it.each([
    ['Grants range from $10,000 to $40,000.', { amountMin: 10000, amountMax: 40000, currency: '$' }],
    ['Awards of between £25k and £150k are available.', { amountMin: 25000, amountMax: 150000, currency: '£' }],
    [
      'We fund up to EUR 50,000 per project. A minimum of EUR 5,000 may be requested.',
      { amountMin: 5000, amountMax: 50000, currency: 'EUR' },
    ],
    ['Our grants are up to $15,000. Most first grants are between $5,000 and $10,000.', { amountMax: 15000, currency: '$' }],
    ['Our endowment is $40 million.', {}],
  ])('reads the amounts in "%s"', async (text, amounts) => {
    const { amountMin, amountMax, currency } = await readCall(text)
    expect(Object.fromEntries(Object.entries({ amountMin, amountMax, currency }).filter(([, value]) => value !== undefined))).toEqual(
      amounts,
    )
  })

  it("keeps the funder's terms: its quoted phrases and its repeated ones, never its own name", async () => {
    const reading = await readCall(
      'Harbour Foundation\n\nWe fund "blue economy" projects.\n\nPriorities\n- Coastal resilience in fishing towns\n- Marine literacy for schools\n\nCoastal resilience matters to us.',
    )
    expect(reading.terms.slice(0, 2)).toEqual(['blue economy', 'coastal resilience'])
    expect(reading.terms).toContain('fishing towns')
    expect(reading.terms).not.toContain('harbour foundation')
  })

  it('keeps every list within its bounds, however long the call', async () => {
    const items = Array.from({ length: 60 }, (_, i) => `- Priority number ${i} about ${'word '.repeat(100)}`).join('\n')
    const reading = await readCall(`Priorities\n${items}\n\nQuestions\n${items.replace(/- /g, '- Describe ')}`)
    expect(reading.priorities).toHaveLength(FUNDER_LIMITS.priorities)
    expect(reading.priorities.every((priority) => priority.text.length <= FUNDER_LIMITS.priority)).toBe(true)
    expect(reading.questions).toHaveLength(FUNDER_LIMITS.questions)
    expect(reading.terms.length).toBeLessThanOrEqual(FUNDER_LIMITS.terms)
  })

  // Cases a review of the second round found, each read right before it and wrong after.
  it.each([
    ['| Grant size | Up to £5,000 |', { amountMax: 5000, currency: '£' }],
    ['| Grant size | £1,000 to £5,000 |', { amountMin: 1000, amountMax: 5000, currency: '£' }],
    ['Grants of up to £5,000 are offered to community groups.', { amountMax: 5000, currency: '£' }],
    ['We make 20 awards of up to £5,000 each, with a total of £100,000 available.', { amountMax: 5000, currency: '£' }],
  ])('reads the amounts of "%s"', async (text, amounts) => {
    expect(await readCall(text)).toMatchObject(amounts)
  })

  it('takes the deadline after "until", a limit after a section number as it is, and terms from a call of prose', async () => {
    expect((await readCall('Applications open from 1 May 2027 until 30 June 2027.')).deadline).toBe('2027-06-30')
    expect((await readCall('Questions\n1. Describe your project. Section 2 300 words maximum')).questions[0]).toMatchObject({
      maxWords: 300,
    })
    const prose = await readCall(
      'We fund work on "food poverty" and youth mental health in the county. We want to reduce food poverty. Youth mental health matters to us.',
    )
    expect(prose.terms).toContain('food poverty')
  })

  it('reads a table pasted with tabs as cells', async () => {
    const reading = await readCall('What we fund\nCriterion\tWhat we look for\nHealth\tImproves access to healthy food')
    expect(reading.priorities).toEqual([{ text: 'Health: Improves access to healthy food' }])
  })
})
