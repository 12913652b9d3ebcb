import fs from 'node:fs'
import { draftNarrative } from '~/server/generation/drafter/drafter.server'
import { draftVariant } from '~/server/generation/drafter/variant-drafter.server'
import { leadOf } from '~/server/generation/drafter/funder-plan.server'
import { offlineDrafter } from '~/server/generation/engines/engine.server'
import type { FunderBrief } from '~/server/generation/engines/contract.server'
import { NARRATIVE_TEXT_MAX } from '~/shared/narrative-text'
import { CUSTOM_LIMITS } from '~/shared/variant-limits'
import type { NarrativeInput } from '~/shared/narrative-schema'
import { countWords } from '~/shared/text'
import { TONES } from '~/shared/tones'
import { PANTRY, TEXTILE_RECYCLER, WATER_CENTER, WARM_HOMES, HOUSING_COOP, YOUNG_CARERS } from '../fixtures/organisations'
import { PADDING, sentencesOf } from '../setup/prose'
import { readOrganisations } from '../setup/corpus'

// The offline drafter's behaviour (docs/drafter.md, docs/decisions/021 and 033), each case on inputs of its own.

const foodBank: NarrativeInput = {
  company: 'Harvest Table Food Bank',
  website: 'https://www.harvesttable.org',
  contactName1: 'Maria Delgado',
  contactTitle1: 'Executive Director',
  contactEmail1: 'maria@harvesttable.org',
  contactPhone1: '512-555-0142',
  missionStatement:
    'Our mission is to end hunger in Travis County by connecting families with nutritious food and the resources they need to thrive.',
  keyPrograms:
    'We run 14 neighborhood pantries, a mobile market that visits rural towns every week, and a summer meals program for children. Our SNAP outreach team helps families apply for benefits they are eligible for.',
  impactMetrics:
    'In 2023 we distributed 4.2 million pounds of food, including 1.1 million pounds of fresh produce. We served 38,000 individuals, and 92% of families surveyed said they ate more fruit and vegetables as a result.',
  targetAudience: 'Low-income families, seniors on fixed incomes, and children who rely on school meals.',
  geographicFocus: 'Travis County and the surrounding rural communities of Central Texas.',
  selectedTone: 'professional',
}

const draft = (input: NarrativeInput, tone = input.selectedTone ?? 'professional', brief: FunderBrief | null = null) =>
  draftNarrative({ ...input, selectedTone: tone }, brief)

describe('draftNarrative', () => {
  it('tells each item of the inputs as a sentence of its own, in the organisation’s words', () => {
    const output = draft(foodBank)
    expect(output).toContain('Harvest Table Food Bank exists to end hunger in Travis County by connecting families with nutritious food')
    expect(output).toContain('The food bank runs 14 neighborhood pantries, a mobile market that visits rural towns every week')
    expect(output).toContain('In 2023 the food bank distributed 4.2 million pounds of food, including 1.1 million pounds of fresh produce.')
    expect(output).toContain("The food bank's work is in Travis County and the surrounding rural communities of Central Texas.")
    expect(output).toContain('Maria Delgado, Executive Director, at maria@harvesttable.org or 512-555-0142')
  })

  it('gives each tone its own person, opening move and request', () => {
    const [professional, conversational, passionate, academic] = TONES.map((tone) => draft(foodBank, tone))
    expect(professional).toMatch(/^Harvest Table Food Bank exists to end hunger/)
    expect(professional).not.toMatch(/\bwe\b/i)
    expect(professional).toContain(
      'Harvest Table Food Bank is seeking funding to sustain and extend the neighborhood pantries and the SNAP outreach team.',
    )
    expect(conversational).toMatch(/^We're here for low-income families/)
    expect(conversational).toMatch(/get in touch with Maria Delgado/)
    expect(passionate).toMatch(/^In 2023 we distributed 4\.2 million pounds of food/)
    expect(passionate).toContain('Stand with Harvest Table Food Bank to end hunger in Travis County.')
    expect(academic).toMatch(/^The problem addressed by Harvest Table Food Bank is one of ending hunger in Travis County/)
    expect(academic).toMatch(/Inquiries about support may be addressed to Maria Delgado, Executive Director/)
  })

  it('is the same for the same inputs, brief and arrangement, and another arrangement when asked', () => {
    expect(draft(foodBank)).toBe(draft({ ...foodBank }))
    for (const tone of TONES)
      expect(draftNarrative({ ...foodBank, selectedTone: tone }, null, { variation: 1 })).not.toBe(draft(foodBank, tone))
  })

  it('gives a regenerated draft a different arrangement, never the same bytes', async () => {
    const read = async (pieces: AsyncIterable<string>) => {
      let text = ''
      for await (const piece of pieces) text += piece
      return text
    }
    const input = { ...TEXTILE_RECYCLER.input, company: `ReWeave ${Math.random()}` }
    const first = await read(offlineDrafter.stream(input, new AbortController().signal, null, 'owner-a'))
    const second = await read(offlineDrafter.stream(input, new AbortController().signal, null, 'owner-a'))
    expect(second).not.toBe(first)
    // Another person's first draft of the same inputs is the first arrangement: one person's Regenerate moves no one else's.
    expect(await read(offlineDrafter.stream(input, new AbortController().signal, null, 'owner-b'))).toBe(first)
  })

  it('keeps the mission whole, its best phrase included', () => {
    for (const tone of TONES) expect(draft(PANTRY.input, tone), tone).toContain('with dignity and without judgement')
  })

  it('writes sparse inputs short, adding no people, places or padding the inputs do not give', () => {
    for (const tone of TONES) {
      const output = draft(TEXTILE_RECYCLER.input, tone)
      expect(countWords(output), tone).toBeLessThan(150)
      expect(output, tone).not.toMatch(PADDING)
      expect(output, tone).toContain('420 tons of textiles')
      expect(output, tone).toContain('Jordan Blake')
    }
  })

  it('keeps every figure, the award and the quote of rich inputs, and asks for funding in every tone', () => {
    for (const tone of TONES) {
      const output = draft(WATER_CENTER.input, tone)
      for (const fact of [
        '$27.4 million',
        'Outstanding Research Award',
        '41 peer-reviewed papers',
        'The students helped us get a filter',
        '6,800',
      ])
        expect(output, tone).toContain(fact)
      expect(output.split('\n\n').at(-1), tone).toMatch(/seeking funding|looking for support|need your support|funding is sought/)
    }
  })

  it('names a missing company generically and leaves out missing optional fields', () => {
    const input = { ...foodBank, company: '', website: undefined, targetAudience: undefined, geographicFocus: undefined }
    for (const tone of TONES) {
      const output = draft(input, tone)
      expect(output).not.toMatch(/undefined|Not provided|https:\/\//)
      expect(output).toMatch(/\b(?:the|our) organization\b/i)
    }
  })

  it('turns pasted bullet lists and markdown into sentences, one an item, without the lead-in line', () => {
    const output = draft({
      ...foodBank,
      keyPrograms:
        'Our programs include:\n- **One-on-one tutoring** for early readers\n- Family reading nights\n* Home libraries for every child',
      impactMetrics: '## Results\n640 students took part\n78% reached grade level',
    })
    expect(output).toContain('The food bank offers one-on-one tutoring for early readers.')
    expect(output).toContain('It also runs family reading nights.')
    expect(output).not.toMatch(/Our programs include|#|\*/)
  })

  it('names no programme after a word capitalised only because it opens the sentence: never "keep the Students going"', () => {
    const output = draft({ ...foodBank, keyPrograms: 'Students get free instrument loans and two group lessons a week after school.' })
    expect(output).not.toMatch(/the Students/)
    expect(output).toContain('Students get free instrument loans and two group lessons a week after school.')
  })

  it('capitalises a sentence start only when that cannot change a name', () => {
    const output = draft({ ...foodBank, keyPrograms: 'we run pantries.\niPad lending for students keeps families connected.' })
    expect(output).toContain('The food bank runs pantries.')
    expect(output).toContain('iPad lending for students keeps families connected.')
  })
})

describe('grammar that long inputs used to break', () => {
  const input: NarrativeInput = {
    ...WATER_CENTER.input,
    impactMetrics: '1,093 (16%) exceeded at least one federal health limit',
    keyPrograms:
      'Low-cost sensors (built for under $400) in 60 homes\nThe Small Systems Clinic pairs graduate students with rural water operators',
    geographicFocus: 'Rural Appalachia. Since 2023 we have also supported 14 villages in West Virginia',
  }
  const drafts = TONES.map((tone) => draft(input, tone))

  it('keeps a clause with its own verb as it is: never "1,093 (16%) were exceeded"', () => {
    for (const output of drafts) {
      expect(output).toContain('1,093 (16%) exceeded at least one federal health limit.')
      expect(output).not.toMatch(/(?:were|was) exceeded/)
    }
  })

  it('tells a place that is a clause as a clause: never "We work in since 2023" or "The geographical setting is since"', () => {
    for (const output of drafts) {
      expect(output).not.toMatch(/\b(?:in|is) since\b/i)
      expect(output).toMatch(/Since 2023 (?:we have|the center has) also supported 14 villages in West Virginia\./)
    }
  })

  it('adds no verb inside an aside: never "sensors ( werebuilt"', () => {
    for (const output of drafts) {
      expect(output).toContain('sensors (built for under $400) in 60 homes')
      expect(output).not.toMatch(/\(\s*were|werebuilt/)
    }
  })

  it('reads a verb the tagger took for a noun: never "there’s the Small Systems Clinic pairs"', () => {
    for (const output of drafts) {
      expect(output).toContain('The Small Systems Clinic pairs graduate students with rural water operators.')
      expect(output).not.toMatch(/there['’]s the Small Systems Clinic/i)
    }
  })

  it('names "The Center" inside a sentence as "the Center": never "stand with The Center"', () => {
    for (const output of drafts) {
      expect(output).toMatch(/[a-z] the Center for Rural Water Safety/)
      expect(output).not.toMatch(/[a-z,] The Center/)
    }
  })

  it('never opens two sentences in a row on a numeral', () => {
    const many = {
      ...foodBank,
      impactMetrics: '- 2,400 adults coached\n- 780 laptops given\n- 87% felt safer online\n- 9 libraries joined\n- 120 volunteers trained',
    }
    for (const tone of TONES) {
      let previous = false
      for (const sentence of sentencesOf(draft(many, tone))) {
        const numeral = /^\d/.test(sentence.trim())
        expect(numeral && previous, `${tone}: ${sentence}`).toBe(false)
        previous = numeral
      }
    }
  })

  it('speaks of one programme as "it" in the request: "the evidence on its effects"', () => {
    expect(draft(TEXTILE_RECYCLER.input, 'academic')).toContain(
      'to sustain the fiber-to-fiber recycling plant and to extend the evidence on its effects.',
    )
    expect(draft(foodBank, 'academic')).toMatch(
      /the neighborhood pantries and the SNAP outreach team and to extend the evidence on their effects\./,
    )
  })

  it('gives a programme its article in the request: never "extend client-choice pantry"', () => {
    const output = draft({ ...foodBank, keyPrograms: 'Client-choice pantry\nHome delivery for seniors' })
    expect(output).toContain('to sustain and extend the client-choice pantry and the home delivery.')
  })
})

describe('voice and register', () => {
  it('keeps the third person in the third-person tones: "its warehouse", never "our warehouse"', () => {
    for (const tone of ['professional', 'academic'] as const) {
      const output = draft(PANTRY.input, tone).replace(/“[^”]*”|"[^"]*"/g, '')
      expect(output, tone).toContain('its warehouse')
      expect(output.replace(/Dana used the pantry.*?told us\./, ''), tone).not.toMatch(/\b(?:we|our|us)\b/i)
    }
  })

  it('keeps "we" in the first-person tones: "We trained 620 agents", not "620 agents were trained"', () => {
    const input = {
      ...foodBank,
      impactMetrics: '- 620 women agents trained, earning an average of $95 a month\n- 2.8 million pounds of food distributed in 2023',
    }
    for (const tone of ['conversational', 'passionate'] as const) {
      const output = draft(input, tone)
      expect(output, tone).toContain('We trained 620 women agents, who earn an average of $95 a month.')
      expect(output, tone).toContain('We distributed 2.8 million pounds of food in 2023.')
      expect(output, tone).not.toMatch(/\b(?:were|was) (?:trained|distributed)\b/)
    }
  })

  it('calls an organisation what its inputs call it, else "the organization", never "the charity" by default', () => {
    expect(draft(PANTRY.input)).toContain('The pantry serves')
    expect(draft(TEXTILE_RECYCLER.input, 'professional')).toContain('The company provides')
    expect(draft(WATER_CENTER.input)).toContain('The center serves')
    const unnamed = { ...foodBank, company: 'Lane County Food Share' }
    expect(draft(unnamed)).toContain('The organization serves')
    expect(draft({ ...unnamed, missionStatement: 'We are a registered charity that ends hunger in Lane County.' })).toContain(
      'The charity serves',
    )
    for (const organisation of [PANTRY, TEXTILE_RECYCLER, WATER_CENTER])
      expect(draft(organisation.input, 'professional')).not.toMatch(/the charity/i)
    // "A registered Scottish charity": what it calls itself, whatever stands before the word.
    expect(draft(YOUNG_CARERS.input, 'professional')).toContain('The charity serves')
  })

  it('asks a charity as a charity, though its inputs name the council it advises', () => {
    expect(YOUNG_CARERS.input.keyPrograms).toContain('Glasgow City Council')
    expect(draft(YOUNG_CARERS.input, 'conversational')).toMatch(/We[’']re looking for support to keep/)
    expect(draft(WARM_HOMES.input, 'conversational')).toMatch(/We[’']re looking for partners and funding/)
  })

  it('asks a company and a public body for funding and partners, never for gifts, donations or volunteers', () => {
    for (const organisation of [TEXTILE_RECYCLER, WARM_HOMES])
      for (const tone of TONES) expect(draft(organisation.input, tone), tone).not.toMatch(/\b(?:gifts?|donations?|donors?|volunteers?)\b/i)
  })

  it('spells as the inputs spell, and writes their apostrophe', () => {
    const british = {
      ...foodBank,
      missionStatement: 'Our mission is to end hunger in Travis County, working with every neighbourhood organisation.',
      keyPrograms: 'We run 14 pantries and a summer meals programme for children.',
    }
    expect(draft(british, 'academic')).toContain('an established programme of work')
    expect(draft(foodBank, 'academic')).toContain('an established program of work')
    expect(draft(foodBank, 'conversational')).toContain("We're here for")
    const curly = { ...foodBank, targetAudience: 'Families who can’t afford groceries.' }
    expect(draft(curly, 'conversational')).toContain('We’re here for')
    expect(draft(curly, 'conversational')).not.toMatch(/[a-z]'[a-z]/i)
  })
})

describe('a funder’s brief', () => {
  const brief: FunderBrief = {
    funder: 'The Meadow Fund',
    amount: '$25,000',
    priorities: ['Digital skills for older adults', 'Fresh produce for families with children'],
    terms: ['fresh produce', 'food sovereignty'],
    maxWords: 220,
  }

  it('names the funder and the amount in the request, in every tone', () => {
    for (const tone of TONES) {
      const close = draft(foodBank, tone, brief).split('\n\n').at(-1)!
      expect(close, tone).toContain('the Meadow Fund')
      expect(close, tone).toContain('$25,000')
    }
  })

  it('leads, after the opening, with what answers a priority, says which priority, and leaves an unanswered one unsaid', () => {
    const inputs = {
      ...foodBank,
      impactMetrics: 'We served 38,000 individuals. 1.1 million pounds of fresh produce went to families with children.',
    }
    const output = draft(inputs, 'professional', brief)
    const paragraphs = output.split('\n\n')
    // A priority that names a thing is said before the facts that answer it, in the call's own words.
    expect(sentencesOf(paragraphs[1])[0]).toBe('The Meadow Fund gives priority to fresh produce for families with children.')
    expect(paragraphs[1]).toContain('1.1 million pounds of fresh produce went to families with children.')
    expect(output.indexOf('1.1 million pounds of fresh produce')).toBeLessThan(output.indexOf('38,000 individuals'))
    expect(output).not.toMatch(/digital skills|older adults/i)
    // A priority that is something to do leads the first sentence that answers it, whatever the call's shape.
    for (const priority of [
      'increase access to fresh produce for families with children',
      'Increasing access to fresh produce for families with children',
      'We fund projects that increase access to fresh produce for families with children.',
    ]) {
      const led = draft(inputs, 'academic', { ...brief, priorities: [priority] }).split('\n\n')[1]
      expect(led, priority).toMatch(
        /^To increase access to fresh produce for families with children, the food bank runs 14 neighborhood pantries/,
      )
      expect(led, priority).toContain('1.1 million pounds of fresh produce went to families with children.')
    }
  })

  it('asks "So what has changed?" only right before a result, also when the results moved to answer a priority', () => {
    // Its one result answers the priority and goes to the priority's paragraph: the question goes too.
    const inputs = { ...foodBank, impactMetrics: '1.1 million pounds of fresh produce went to families with children.' }
    for (const priorities of [[], ['Fresh produce for families with children'], ['reduce hunger among families with children']]) {
      const text = draft(inputs, 'conversational', { ...brief, priorities, maxWords: null })
      const sentences = sentencesOf(text)
      const asked = sentences.findIndex((sentence) => sentence.startsWith('So what has changed'))
      if (asked !== -1) expect(sentences[asked + 1], text).toMatch(/\d/)
    }
  })

  it('tells a priority as the call words it: something to do, an outcome, a group or theme, or nothing where it reads badly', () => {
    const cases: [string, string | null][] = [
      // From the corpus's calls, each a shape real calls use.
      [
        'bring people together and build strong relationships in and across communities',
        'To bring people together and build strong relationships in and across communities,',
      ],
      [
        'Bringing people and local organisations together so communities are stronger and more resilient',
        'To bring people and local organisations together,',
      ],
      ["We fund projects that improve people's physical and mental health.", "To improve people's physical and mental health,"],
      ['Improving biodiversity and responding to the climate emergency', 'To improve biodiversity and respond to the climate emergency,'],
      [
        'strengthen the social, cultural and environmental health of our towns and villages',
        'To strengthen the social, cultural and environmental health of the towns and villages,',
      ],
      [
        'get food to low-income people who need it, whether by distributing it, by helping them sign up for benefits',
        'To get food to low-income people who need it,',
      ],
      ['show what works in practice', 'To show what works in practice,'],
      [
        'Older adults live safely and independently in the setting they choose',
        'So that older adults live safely and independently in the setting they choose,',
      ],
      ['care leavers', 'The Fund gives priority to care leavers.'],
      [
        'people who are homeless or at risk of homelessness',
        'The Fund gives priority to people who are homeless or at risk of homelessness.',
      ],
      ['Aboriginal and Torres Strait Islander people', 'The Fund gives priority to Aboriginal and Torres Strait Islander people.'],
      ['Education: literacy, STEM and other learning programs for students of all ages', 'The Fund gives priority to education.'],
      [
        'Alcohol and substance misuse: helping people affected by drug or alcohol misuse, and their families, to recover',
        'To help people affected by drug or alcohol misuse, and their families, to recover,',
      ],
      // The call's own voice, a sentence about a programme, the project as subject: no lead reads well from these.
      ['We are particularly interested in support for people facing crisis, isolation or homelessness', null],
      ['Explore and Create helps Canadian artists, groups and organizations investigate creative processes', null],
      ['The project increases volunteering and participation in community life', null],
    ]
    for (const [priority, expected] of cases) {
      const lead = leadOf(priority, 'the Fund')
      expect(lead && ('opening' in lead ? lead.opening : lead.sentence), priority).toBe(expected)
    }
  })

  it('uses the funder’s terms only where the inputs support them', () => {
    const output = draft(foodBank, 'professional', { ...brief, maxWords: null })
    expect(output).toContain('fresh produce')
    expect(output).not.toContain('food sovereignty')
  })

  it('capitalises a funder named with "the" when it opens a sentence', () => {
    for (const tone of TONES)
      expect(draft(foodBank, tone, { ...brief, funder: 'Meadow Community Foundation', maxWords: null }), tone).not.toMatch(
        /(?:^|[.!?]\s+)the Meadow/m,
      )
    expect(draft(foodBank, 'conversational', { ...brief, funder: 'Meadow Community Foundation', maxWords: null })).toContain(
      'The Meadow Community Foundation would call it fresh produce, and so would we.',
    )
  })

  it('keeps the brief’s word limit, and the request names only the programmes the draft kept', () => {
    for (const maxWords of [220, 120, 60]) {
      for (const tone of TONES) {
        const output = draft(WATER_CENTER.input, tone, { ...brief, maxWords })
        expect(countWords(output), `${tone} at ${maxWords}`).toBeLessThanOrEqual(maxWords)
        expect(output, `${tone} at ${maxWords}`).toContain('the Meadow Fund')
        // The first of a list gives way last: no "also" is left without what it adds to.
        for (const paragraph of output.split('\n\n')) expect(sentencesOf(paragraph)[0], `${tone} at ${maxWords}`).not.toMatch(/\balso\b/)
      }
    }
    const kept = draft(HOUSING_COOP.input, 'professional', { ...brief, maxWords: 120 })
    const request = kept.split('\n\n').at(-1)!
    for (const name of ['member-run maintenance teams', 'rent hardship fund', 'energy retrofits']) {
      if (request.includes(name)) expect(kept.replace(request, ''), name).toContain(name)
    }
  })
})

describe('draftVariant', () => {
  const narrative = draft(foodBank)
  const task = (format: 'pitch' | 'loi' | 'social' | 'custom', limit: { unit: 'words' | 'characters'; max: number }, text = narrative) => ({
    input: {
      ...foodBank,
      contactName2: '',
      contactTitle2: '',
      contactEmail2: '',
      contactPhone2: '',
      website: foodBank.website!,
      targetAudience: '',
      geographicFocus: '',
      successStory: '',
      contactTitle1: 'Executive Director',
      contactPhone1: '',
    } as Required<NarrativeInput>,
    narrativeText: text,
    format,
    limit,
  })

  it('starts from the narrative as it reads now, edits included', () => {
    const edited = `${narrative}\n\nA new closing line the writer added about the pantry garden.`
    const variant = draftVariant(task('custom', { unit: 'words', max: 1000 }, edited))!
    expect(variant).toContain('the pantry garden')
  })

  it('gives a letter of inquiry the request and the contact, even from a text that has neither', () => {
    const letter = draftVariant(task('loi', { unit: 'words', max: 150 }))!
    expect(letter).toMatch(/seeking funding/)
    expect(letter).toContain('Maria Delgado')
    const bare = draftVariant(task('loi', { unit: 'words', max: 150 }, 'We feed families in Travis County. We ran 14 pantries in 2023.'))!
    expect(bare).toContain('would welcome a conversation about support')
    expect(bare).toContain('Maria Delgado, Executive Director, at maria@harvesttable.org')
  })

  it('keeps the limit in whole sentences, and gives null when no sentence fits', () => {
    expect(countWords(draftVariant(task('pitch', { unit: 'words', max: 50 }))!)).toBeLessThanOrEqual(50)
    expect(draftVariant(task('custom', { unit: 'words', max: 3 }))).toBeNull()
  })
})

describe("hostile text at the form's maximum sizes", () => {
  const fill = (unit: string) => unit.repeat(Math.ceil(5000 / unit.length)).slice(0, 5000)
  it.each(['!', '.', '. A', '… ', 'ab ', 'We feed people. ', '- item\n'])(
    'still drafts at most 400 words, ending on a full stop, from %j repeated',
    (unit) => {
      const text = fill(unit)
      const output = draftNarrative({
        ...foodBank,
        missionStatement: text,
        keyPrograms: text,
        impactMetrics: text,
        targetAudience: text,
        geographicFocus: text,
        successStory: text.slice(0, 2000),
      })
      expect(countWords(output)).toBeLessThanOrEqual(400)
      expect(output).toContain('Harvest Table Food Bank')
      expect(output.trim()).toMatch(/[.!?…]["'”’)]*$/)
    },
  )

  it('drops an item whose first 320 characters hold no word, rather than write a sentence with nothing after its verb', () => {
    const punctuation = `${', '.repeat(200)}to feed the hungry`
    for (const tone of TONES) {
      const output = draft({ ...foodBank, missionStatement: punctuation, geographicFocus: punctuation }, tone)
      expect(output, tone).toContain('Harvest Table Food Bank')
      for (const sentence of sentencesOf(output)) expect(sentence, tone).not.toMatch(/\b(?:is|in|are)\.$/)
    }
  })

  // A field that is one run of 5,000 characters is one "word": a draft of 400 of them ran past 20,000
  // characters (the most a narrative keeps), so the generation failed; and "a/a/…" held the tagger 5 s.
  it.each(['a', 'Ab', 'a/', 'https://x.org/'])(
    'copies no more than a sentence’s worth of %j repeated with no space, in any tone',
    (unit) => {
      const text = fill(unit)
      for (const tone of TONES) {
        const output = draftNarrative({ ...foodBank, missionStatement: text, keyPrograms: text, impactMetrics: text, selectedTone: tone })
        expect(output.length).toBeLessThan(5000)
        expect(output).not.toMatch(/\S{52,}/)
        expect(output).toContain('Maria Delgado')
        const variant = draftVariant({
          input: { ...foodBank, company: text.slice(0, 200) } as Required<NarrativeInput>,
          narrativeText: `${text}\n\n${text}`,
          format: 'custom',
          limit: { unit: 'words', max: CUSTOM_LIMITS.words.max },
        })
        expect(variant!.length).toBeLessThan(NARRATIVE_TEXT_MAX)
      }
    },
  )
})

describe('names that look like words, on the corpus', () => {
  const organisations = readOrganisations()

  it.each(TONES)('never reads an organisation’s name as a verb (%s)', (tone) => {
    for (const { inputs } of organisations) {
      const name = inputs.company.replace(/\s*\([^)]*\)/g, '')
      const first = name.split(/\s+/)[0]
      const text = draftNarrative({ ...inputs, contactName1: 'A. Person', contactEmail1: 'a@example.org', selectedTone: tone })
      // "Miss Meringue CIC misses Meringue is…", "Turn the Page Literacy turns the Page Literacy gives…": the name's
      // first word became the verb of a sentence the name opens.
      expect(text, name).not.toMatch(new RegExp(`${escapeRegExp(name)}\\s+${escapeRegExp(first.toLowerCase())}(?:s|es)?\\b`))
      expect(text, name).not.toMatch(
        /\b(?:We|we) (?:miss|count|turn|start|raise|stand|step|show|level|tune|power|read|talk|hand|lend|open)\s+(?:founded|was|is|has)\b/,
      )
    }
  })

  it('keeps the organisation’s own words where a rewrite would not be certain', () => {
    const baker = organisations.find((organisation) => organisation.slug === 'uk-baking-social-enterprise-cic')!
    for (const tone of TONES) {
      const text = draftNarrative({ ...baker.inputs, contactName1: 'A. Person', contactEmail1: 'a@example.org', selectedTone: tone })
      // Each was broken before: a passive forced on people who acted, a sentence about some of the audience framed as a
      // phrase, "was" given to what comes before "and".
      expect(text, tone).not.toMatch(
        /Sales (?:was|were) brought in|young people were applied for|works with many are|and were registered as a CIC/,
      )
      expect(text, tone).toMatch(/Sales brought in £412,000|30 young people applied for the 12 places/)
    }
  })

  it('gives "was" only to what is done to an organisation, and lets people who act stay active', () => {
    const impactMetrics = 'Founded in 2009 in a church hall.\nWorked with 30 schools in 2024.\n120 tenants housed in 2024.'
    const text = draft({ ...foodBank, impactMetrics })
    expect(text).toMatch(/(?:was|were) founded in 2009 in a church hall/)
    expect(text).not.toMatch(/(?:was|were) worked with 30 schools|tenants housed in 2024 (?:was|were)/)
  })

  it('calls a programme written "Name: what it does" by its name when asking for it', () => {
    const baker = organisations.find((organisation) => organisation.slug === 'uk-baking-social-enterprise-cic')!
    const text = draftNarrative({
      ...baker.inputs,
      contactName1: 'A. Person',
      contactEmail1: 'a@example.org',
      selectedTone: 'professional',
    })
    expect(text).toContain('Miss Meringue is a Birmingham bakery')
    expect(text).toMatch(/to sustain and extend Bake It Work, the paid placements and the aftercare\./)
    expect(text).not.toMatch(/the aftercare: every/)
  })

  it('reads the corpus as its readers did: an incorporated association is no company, a past tense keeps its form, a quote keeps its speaker', () => {
    const corpus = new Map(readOrganisations().map((organisation) => [organisation.slug, organisation.inputs]))
    const drafted = (slug: string, tone: (typeof TONES)[number]) =>
      draftNarrative({ ...corpus.get(slug)!, contactName1: 'A. Person', contactEmail1: 'a@example.org', selectedTone: tone })
    for (const tone of TONES) {
      // Australian "Inc.": a sailing club, not "the company".
      expect(drafted('au-disability-sport-club', tone), tone).not.toMatch(/\bthe company\b/i)
      // "We redistributed 412 tonnes" in the third person is never "redistributeds".
      expect(drafted('uk-community-food-network', tone), tone).not.toMatch(/\b\w+eds\b(?<!needs|feeds|seeds|sheds)/)
      // The story's last words are a quotation said in two sentences: both come, with "she says".
      expect(drafted('ca-financial-empowerment', tone), tone).toContain(
        "'I always thought saving was for people with money,' she says. 'It turns out it is how you get some.'",
      )
    }
  })

  it('tells a result that points back only right after the result it points at, in every tone, order and limit', () => {
    const impactMetrics = [
      'In 2024, 51 adults completed the reading course.',
      'Of those who completed, 44 improved their reading age by at least a year.',
      'We distributed 1.9 million pounds of food in 2023.',
      'That is the equivalent of about 4,300 meals a day.',
      '92% of families surveyed said they ate more fruit and vegetables.',
    ].join('\n')
    const pairs = [
      ['51 adults completed the reading course', 'Of those who completed, 44'],
      ['1.9 million pounds of food', 'That is the equivalent of about 4,300 meals a day'],
    ]
    const forFunder: FunderBrief = {
      funder: 'The Meadow Fund',
      amount: '$25,000',
      priorities: ['Fresh food for families: reducing hunger'],
      terms: [],
      maxWords: 120,
    }
    const briefs = [null, forFunder]
    for (const tone of TONES)
      for (const variation of [0, 1, 2])
        for (const funder of briefs) {
          const text = draftNarrative({ ...foodBank, impactMetrics, selectedTone: tone }, funder, { variation })
          for (const [leader, follower] of pairs) {
            const at = text.indexOf(follower)
            if (at === -1) continue
            // The sentence just before it is the one it points at.
            const before = sentencesOf(text.slice(0, at)).at(-1) ?? ''
            expect(before, `${tone} ${variation} ${funder ? 'for a funder' : ''}: ${text}`).toContain(leader)
          }
        }
  })

  it('tells "Name: what it is" with the verb the colon stood for, and a name before a clause as written', () => {
    const keyPrograms = [
      'Paid Pathways: a 26-week paid traineeship in our kitchens covering food safety and customer service.',
      'Shared plots: 34 raised beds rented to members for $40 a year.',
      'Homework Lodge: drop-in tutoring four afternoons a week with a hot meal.',
      'Surplus table: spare produce goes on a free table at the gate.',
      'Employer Circle: 40 restaurants and hotels who interview our graduates.',
      'Six Chairs: at every shift volunteers put out six chairs and sit with people.',
      'First Steps: practical help with forms and letters.',
    ].join('\n')
    const text = draft({ ...foodBank, keyPrograms })
    expect(text).toContain('Paid Pathways is a 26-week paid traineeship in its kitchens covering food safety and customer service.')
    expect(text).toContain('The shared plots are 34 raised beds rented to members for $40 a year.')
    expect(text).toContain('Homework Lodge offers drop-in tutoring four afternoons a week with a hot meal.')
    // A name before a clause: the programme is how it happens, or, a proper name, what the organisation runs.
    expect(text).toContain('Through its surplus table, spare produce goes on a free table at the gate.')
    expect(text).toMatch(/(?:The food bank|It) runs Six Chairs: at every shift volunteers put out six chairs and sit with people\./)
    // A programme's name is one thing, plural or not.
    expect(text).toContain('First Steps offers practical help with forms and letters.')
    // Made of restaurants, not offering them.
    expect(text).toContain('Employer Circle has 40 restaurants and hotels who interview its graduates.')
    // A verb after the organisation's first in a list agrees with it too: "…, publishes it, and makes …".
    const keyPrograms2 = 'We gather what we see in our casework, publish it, and make submissions on housing policy.'
    expect(draft({ ...foodBank, keyPrograms: keyPrograms2 })).toContain(
      'The food bank gathers what it sees in its casework, publishes it, and makes submissions on housing policy.',
    )
  })
})

describe('whom and where, as the corpus writes them', () => {
  const organisations = [...readOrganisations(), ...readOrganisations('held-out/organisations')]

  it.each(TONES)('tells a statement about the need as written, never framed as the people served (%s)', (tone) => {
    for (const { slug, inputs } of organisations) {
      const text = draftNarrative({ ...inputs, contactName1: 'A. Person', contactEmail1: 'a@example.org', selectedTone: tone })
      // "The organisation also works with NHS England's 2023 survey found that …": a sentence with its own verb, framed.
      expect(text, slug).not.toMatch(
        /\b(?:also works? with|serves?|here for)\s[^.]{0,60}?\b(?:survey|study|census|count|index|report)\b[^.]{0,20}?\b(?:found|finds|shows|rates|counted|estimates)\b/i,
      )
      expect(text, slug).not.toMatch(
        /\balso works? with (?:about|around|nearly|roughly|close to|more than|one|\d)[^.,]* (?:is|are|has|have|was|were|lives?|says?|does) /i,
      )
    }
    const befriending = organisations.find((organisation) => organisation.slug === 'uk-childrens-befriending')!
    // With room for it (no story): under the limit, a statement about the need may give way, and the page says so.
    expect(
      draftNarrative({
        ...befriending.inputs,
        successStory: '',
        contactName1: 'A. Person',
        contactEmail1: 'a@example.org',
        selectedTone: tone,
      }),
    ).toContain(
      "NHS England's 2023 survey found that about one in five children and young people aged 8 to 16 had a probable mental disorder.",
    )
  })
})

describe('the recorded reads of the corpus drafts', () => {
  // docs/drafter.md#the-recorded-read: every draft of the corpus in four tones, read sentence by sentence by an editor
  // who listed each broken one. Those the drafter has since mended must never come back.
  type Flagged = { organisation: string; tone: (typeof TONES)[number]; sentence: string; fixed: boolean }
  const readOf = (round: number) =>
    JSON.parse(fs.readFileSync(`tests/fixtures/corpus/drafter-read/round-${round}.json`, 'utf8')) as Flagged[]
  const organisations = new Map([...readOrganisations(), ...readOrganisations('held-out/organisations')].map((one) => [one.slug, one]))
  const drafts = new Map<string, string>()
  const draftOf = (slug: string, tone: (typeof TONES)[number]) => {
    const key = `${slug} ${tone}`
    if (!drafts.has(key)) {
      const { inputs } = organisations.get(slug)!
      drafts.set(key, draftNarrative({ ...inputs, contactName1: 'Jo Baker', contactEmail1: 'jo@example.org', selectedTone: tone }))
    }
    return drafts.get(key)!
  }
  /** The sentence whole in the draft: "Six Chairs: at every shift …" is mended inside "It runs Six Chairs: at every shift …". */
  const told = (draft: string, sentence: string) =>
    new RegExp(`(?:^|[.!?]\\s+|\\n)${sentence.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).test(draft)

  it.each([
    [1, 500],
    [3, 500],
    [5, 350],
  ])('brings back none of the broken sentences read %i found and the drafter mended', (round, atLeast) => {
    const mended = readOf(round).filter((one) => one.fixed)
    expect(mended.length).toBeGreaterThan(atLeast)
    expect(mended.filter((one) => told(draftOf(one.organisation, one.tone), one.sentence))).toEqual([])
  })
})

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
