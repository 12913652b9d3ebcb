import { draftNarrative } from '~/server/generation/drafter/drafter.server'
import { draftVariant } from '~/server/generation/drafter/variant-drafter.server'
import { NARRATIVE_TEXT_MAX } from '~/shared/narrative-text'
import { CUSTOM_LIMITS } from '~/shared/variant-limits'
import type { NarrativeInput } from '~/shared/narrative-schema'
import { countWords } from '~/shared/text'
import { TONES } from '~/shared/tones'
import { MENTAL_HEALTH } from '../fixtures/organisations'

const foodBank: NarrativeInput = {
  company: 'Harvest Table Food Bank',
  website: 'https://www.harvesttable.org',
  contactName1: 'Maria Delgado',
  contactTitle1: 'Executive Director',
  contactEmail1: 'maria@harvesttable.org',
  contactPhone1: '512-555-0142',
  contactName2: 'Tom Becker',
  contactTitle2: 'Development Manager',
  contactEmail2: 'tom@harvesttable.org',
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

const literacy: NarrativeInput = {
  company: 'Bright Pages Literacy Project',
  website: 'brightpages.org',
  contactName1: 'Aisha Rahman',
  contactTitle1: 'Program Director',
  contactEmail1: 'aisha@brightpages.org',
  missionStatement:
    'Bright Pages helps every child in Cleveland become a confident reader by third grade. We believe reading is the foundation for every other kind of learning.',
  keyPrograms:
    'Trained volunteers tutor first and second graders one-on-one twice a week during the school day. We also run family reading nights and give every participant a home library of twelve books each year.',
  impactMetrics:
    'Last school year 640 students took part. 78% of them reached grade-level reading benchmarks, compared with 51% of their peers, and 300 volunteers gave more than 21,000 hours.',
  targetAudience: 'Children in kindergarten through third grade at under-resourced public schools.',
  geographicFocus: 'Cleveland, Ohio, across 18 partner elementary schools.',
  selectedTone: 'conversational',
}

const cleanWater: NarrativeInput = {
  company: 'WellSpring Water Alliance',
  website: 'https://wellspringwater.org/',
  contactName1: 'Daniel Okoro',
  contactTitle1: 'Founder and Chief Executive',
  contactEmail1: 'daniel@wellspringwater.org',
  contactPhone1: '+1 206 555 0199',
  missionStatement:
    'To bring safe, reliable drinking water to rural communities so that no child has to walk for hours to collect water that makes them sick.',
  keyPrograms:
    'We drill and rehabilitate boreholes, train local water committees to maintain them, and teach hygiene and sanitation in schools. Each project is planned with village leaders and owned by the community.',
  impactMetrics:
    'Since 2016 we have completed 212 water points serving more than 95,000 people. Waterborne illness in partner villages fell by 40%, and school attendance among girls rose by 23%.',
  targetAudience: 'Rural villages without a safe water source, especially women and girls who carry the burden of collecting water.',
  geographicFocus: 'Northern Uganda and western Kenya.',
  selectedTone: 'passionate',
}

const mentalHealth = MENTAL_HEALTH.input

const FULL_FORMS = [foodBank, literacy, cleanWater, mentalHealth]

function inputText(input: NarrativeInput): string {
  return Object.values(input).filter(Boolean).join('\n')
}

function numbersIn(text: string): string[] {
  return (text.match(/\d[\d,.%]*/g) ?? []).map((number) => number.replace(/[.,]+$/, ''))
}

// A capitalised word that does not start a sentence (or a paragraph) must be a name from the input.
function capitalizedMidSentenceWords(text: string): string[] {
  const words: string[] = []
  for (const paragraph of text.split(/\n\n/)) {
    for (const match of paragraph.matchAll(/[A-Z][A-Za-z'’-]*/g)) {
      const before = paragraph.slice(0, match.index)
      const startsSentence = /(^|[.!?…]["'”’)]*\s+)$/.test(before) && !/(^|\s)(Dr|Mr|Mrs|Ms|St)\.\s+$/.test(before)
      const insideWord = /[A-Za-z0-9@./-]$/.test(before)
      if (!startsSentence && !insideWord) words.push(match[0].replace(/['’]s$/, ''))
    }
  }
  return words
}

function expectNoInventedFacts(output: string, input: NarrativeInput) {
  const source = inputText(input)
  const sourceNumbers = new Set(numbersIn(source))
  for (const number of numbersIn(output)) expect(sourceNumbers, `number ${number}`).toContain(number)
  const sourceWords = new Set(source.match(/[A-Za-z][A-Za-z'’-]*/g)?.map((word) => word.replace(/['’]s$/, '')))
  for (const word of capitalizedMidSentenceWords(output)) expect(sourceWords, `capitalised word ${word}`).toContain(word)
}

function expectPlainProse(output: string) {
  expect(output).not.toMatch(/\*/)
  expect(output).not.toMatch(/^\s*(?:[-•#]|\d+[.)])\s/m)
  expect(output).not.toContain('Not provided')
  const paragraphs = output.split('\n\n')
  expect(paragraphs).toHaveLength(5)
  for (const paragraph of paragraphs) {
    expect(paragraph.trim()).not.toBe('')
    expect(paragraph).not.toContain('\n')
    expect(paragraph).toMatch(/[.!?…]$/)
  }
}

describe('draftNarrative', () => {
  for (const form of FULL_FORMS) {
    for (const tone of TONES) {
      it(`writes 300-400 words of plain prose without invented facts (${form.company}, ${tone})`, () => {
        const input = { ...form, selectedTone: tone }
        const output = draftNarrative(input)
        const words = countWords(output)
        expect(words).toBeGreaterThanOrEqual(300)
        expect(words).toBeLessThanOrEqual(400)
        expectPlainProse(output)
        expectNoInventedFacts(output, input)
      })
    }
  }

  it('weaves in the user facts, each item a sentence of its own', () => {
    const output = draftNarrative(foodBank)
    expect(output).toContain('Harvest Table Food Bank exists to end hunger in Travis County')
    expect(output).toContain('4.2 million pounds of food')
    expect(output).toContain('The food bank runs 14 neighborhood pantries')
    expect(output).toContain('The food bank works in Travis County and the surrounding rural communities of Central Texas.')
    expect(output).toContain('https://www.harvesttable.org')
    expect(output).toContain('Maria Delgado, Executive Director, at maria@harvesttable.org or 512-555-0142')
  })

  it('gives each tone its own person, opening move and call to action', () => {
    const outputs = TONES.map((tone) => draftNarrative({ ...foodBank, selectedTone: tone }))
    expect(new Set(outputs).size).toBe(TONES.length)
    const [professional, conversational, passionate, academic] = outputs
    // Professional: the mission first, in the third person, and a formal request.
    expect(professional).toMatch(/^Harvest Table Food Bank exists to end hunger/)
    expect(professional).not.toMatch(/\bWe (?:run|served|distributed)\b/)
    expect(professional).toMatch(/is seeking funding to sustain and extend/)
    // Conversational: the people first, "we" and "you".
    expect(conversational).toMatch(/^Let us start with the people we’re here for: low-income families/)
    expect(conversational).toMatch(/If you’d like to talk about helping, get in touch with Maria Delgado/)
    // Passionate: a figure first.
    expect(passionate).toMatch(/^In 2023 we distributed 4\.2 million pounds of food/)
    expect(passionate).toMatch(/Now is the time to stand with Harvest Table Food Bank/)
    // Academic: the problem first, a measured request.
    expect(academic).toMatch(/^The problem addressed by Harvest Table Food Bank is one of ending hunger in Travis County/)
    expect(academic).toMatch(/Inquiries about support may be addressed to Maria Delgado, Executive Director/)
  })

  it('names the primary contact in every tone’s call to action', () => {
    for (const tone of TONES) {
      const callToAction = draftNarrative({ ...foodBank, selectedTone: tone })
        .split('\n\n')
        .at(-1)!
      expect(callToAction, tone).toContain('Maria Delgado')
      expect(callToAction, tone).toContain('maria@harvesttable.org')
    }
  })

  it('states the problem, the funding ask and why this organisation', () => {
    const professional = draftNarrative(foodBank)
    expect(professional).toContain('The need it answers lies with low-income families')
    expect(professional).toContain('Harvest Table Food Bank is seeking funding to sustain and extend neighborhood pantries.')
    expect(professional).toContain('The case for investing in Harvest Table Food Bank rests on programmes that are already running')
  })

  it('is deterministic', () => {
    for (const form of FULL_FORMS) expect(draftNarrative(form)).toBe(draftNarrative({ ...form }))
  })

  it('keeps very long inputs at or under 400 words', () => {
    const longSentences = (topic: string) =>
      Array.from(
        { length: 40 },
        (_, index) => `In year ${index + 2000} our ${topic} work reached ${index * 17 + 5} more households across the region.`,
      ).join(' ')
    for (const tone of TONES) {
      const input: NarrativeInput = {
        ...foodBank,
        selectedTone: tone,
        missionStatement: longSentences('mission'),
        keyPrograms: longSentences('program'),
        impactMetrics: longSentences('impact'),
        targetAudience: longSentences('outreach'),
        geographicFocus: longSentences('regional'),
      }
      const output = draftNarrative(input)
      expect(countWords(output)).toBeLessThanOrEqual(400)
      expect(countWords(output)).toBeGreaterThanOrEqual(250)
      expectPlainProse(output)
      expectNoInventedFacts(output, input)
    }
  })

  it('keeps a single enormous unpunctuated field at or under 400 words', () => {
    const endless = Array.from({ length: 700 }, (_, index) => (index % 9 === 8 ? 'families,' : 'support')).join(' ')
    for (const tone of TONES) {
      const input: NarrativeInput = {
        ...foodBank,
        selectedTone: tone,
        company: 'The Very Long Named Community Partnership For Neighborhood Renewal And Opportunity In Greater Riverside',
        missionStatement: endless,
        keyPrograms: endless,
        impactMetrics: endless,
        targetAudience: endless,
        geographicFocus: endless,
      }
      expect(countWords(draftNarrative(input))).toBeLessThanOrEqual(400)
    }
  })

  it('pads minimal input with fact-free prose and never exceeds 400 words', () => {
    for (const tone of TONES) {
      const input: NarrativeInput = {
        company: 'Acme Trust',
        contactName1: 'Sam Lee',
        contactEmail1: 'sam@acme.org',
        missionStatement: 'Help kids read.',
        keyPrograms: 'Tutoring.',
        impactMetrics: 'Forty readers.',
        selectedTone: tone,
      }
      const output = draftNarrative(input)
      expect(countWords(output)).toBeGreaterThanOrEqual(200)
      expect(countWords(output)).toBeLessThanOrEqual(400)
      expectPlainProse(output)
      expectNoInventedFacts(output, input)
      expect(output).toContain('Acme Trust')
      expect(output).toContain('Sam Lee')
    }
  })

  it('leaves out missing optional fields and names a missing company generically', () => {
    const input = {
      ...foodBank,
      company: '',
      website: undefined,
      targetAudience: undefined,
      geographicFocus: undefined,
    }
    const output = draftNarrative(input)
    expect(output).not.toContain('Not provided')
    expect(output).not.toContain('undefined')
    expect(output).not.toContain('Harvest Table Food Bank')
    expect(output).toMatch(/our organization/i)
    expect(output).not.toContain('https://')
    expectPlainProse(output)
    expectNoInventedFacts(output, input)
  })

  it('turns pasted bullet lists and markdown into sentences, one an item, without the lead-in line', () => {
    const input: NarrativeInput = {
      ...literacy,
      selectedTone: 'professional',
      keyPrograms:
        'Our programs include:\n- **One-on-one tutoring** for early readers\n- Family reading nights\n* Home libraries for every child',
      impactMetrics: '## Results\n640 students took part\n78% reached grade level',
    }
    const output = draftNarrative(input)
    expectPlainProse(output)
    expectNoInventedFacts(output, input)
    expect(output).toContain('provides one-on-one tutoring for early readers.')
    expect(output).toContain('It also runs family reading nights.')
    expect(output).toContain('640 students took part. 78% reached grade level.')
    expect(output).not.toContain('Our programs include')
    expect(output).not.toContain('#')
  })

  it('gives a list item a verb of its own, and never lends one item’s modifier to the next', () => {
    const output = draftNarrative({
      ...foodBank,
      impactMetrics:
        '- 620 women agents trained, earning an average of $95 a month\n- An estimated 52,000 tonnes of CO2 emissions avoided\n- Winner of the 2023 Ashden Award',
    })
    expect(output).toContain('620 women agents were trained, earning an average of $95 a month.')
    expect(output).toContain('An estimated 52,000 tonnes of CO2 emissions were avoided.')
    expect(output).toContain('Harvest Table Food Bank was the winner of the 2023 Ashden Award.')
  })

  it('capitalises a sentence start only when that cannot change a name', () => {
    const output = draftNarrative({
      ...foodBank,
      keyPrograms: 'we run pantries.\niPad lending for students keeps families connected.',
    })
    expect(output).toContain('The food bank runs pantries.')
    expect(output).toContain('iPad lending for students keeps families connected.')
  })

  it('does not repeat the name when the mission already starts with it', () => {
    const output = draftNarrative({
      ...foodBank,
      missionStatement: 'Harvest Table Food Bank feeds families in Travis County.',
    })
    expect(output.startsWith('Harvest Table Food Bank feeds families in Travis County.')).toBe(true)
    expect(output).not.toContain('Harvest Table Food Bank’s mission')
  })

  it('frames a one-phrase field, lowercasing only common words', () => {
    const common = draftNarrative({ ...foodBank, targetAudience: 'Seniors living alone' })
    expect(common).toContain('The need it answers lies with seniors living alone.')
    const name = draftNarrative({ ...foodBank, geographicFocus: 'Travis County' })
    expect(name).toContain('The food bank works in Travis County.')
  })
})

describe("hostile text at the form's maximum sizes", () => {
  const fill = (unit: string) => unit.repeat(Math.ceil(5000 / unit.length)).slice(0, 5000)
  it.each(['!', '.', '. A', '… ', 'ab ', 'We feed people. ', '- item\n'])(
    'still drafts at most 400 words, ending on a full stop, from %j repeated',
    (unit) => {
      const text = fill(unit)
      const draft = draftNarrative({
        ...foodBank,
        missionStatement: text,
        keyPrograms: text,
        impactMetrics: text,
        targetAudience: text,
        geographicFocus: text,
      })
      expect(countWords(draft)).toBeLessThanOrEqual(400)
      expect(draft).toContain('Harvest Table Food Bank')
      expect(draft.trim()).toMatch(/[.!?…]["'”’)]*$/)
    },
  )

  // A field that is one run of 5,000 characters is one "word": a draft of 400 of them ran past 20,000
  // characters (the most a narrative keeps), so the generation failed; and "a/a/…" held the tagger 5 s.
  it.each(['a', 'Ab', 'a/', 'https://x.org/'])(
    'copies no more than a sentence’s worth of %j repeated with no space, in any tone',
    (unit) => {
      const text = fill(unit)
      for (const tone of TONES) {
        const draft = draftNarrative({ ...foodBank, missionStatement: text, keyPrograms: text, impactMetrics: text, selectedTone: tone })
        expect(draft.length).toBeLessThan(5000)
        expect(draft).not.toMatch(/\S{52,}/)
        expect(draft).toContain('Maria Delgado')
      }
      const variant = draftVariant(
        { ...foodBank, contactPhone2: '', missionStatement: text, keyPrograms: text, impactMetrics: text } as Required<NarrativeInput>,
        'custom',
        { unit: 'words', max: CUSTOM_LIMITS.words.max },
      )
      expect(variant!.length).toBeLessThan(NARRATIVE_TEXT_MAX)
    },
  )
})
