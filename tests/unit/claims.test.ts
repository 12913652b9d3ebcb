import { draftNarrative } from '~/server/generation/drafter/drafter.server'
import { findClaims, type ClaimInputs } from '~/server/narratives/claims.server'
import { TONES } from '~/shared/tones'
import { FULL_INPUT } from '../setup/narrative-input'

const INPUTS: ClaimInputs = {
  company: 'Harvest Table Food Bank',
  contactName1: 'Maria Delgado',
  contactTitle1: 'Executive Director',
  contactPhone1: '512-555-0142',
  missionStatement: 'We end hunger in Lane County.',
  keyPrograms: 'Weekend meal packs; SNAP enrollment help; the Fresh Start programme',
  impactMetrics:
    'Served 9,999 families in 2024. 71 percent of clients found work. Raised $250,000 and $1,200,000 in grants. Opened on March 12, 2024. 10-15 volunteers a day. 3rd year of COVID-19 relief.',
}

/** Each claim as `text: supported?`, in order. */
function claimsOf(text: string, inputs: ClaimInputs = INPUTS) {
  return findClaims(text, inputs).map((claim) => `${claim.text}: ${claim.supported ? 'yes' : 'NO'}`)
}

describe('findClaims: figures', () => {
  it('matches numbers however their thousands are written', () => {
    expect(claimsOf('We served 9999 families.')).toEqual(['9999: yes'])
    expect(claimsOf('We served 9,999 families.', { impactMetrics: 'Served 9999 families' })).toEqual(['9,999: yes'])
    expect(claimsOf('We served 9,998 families.')).toEqual(['9,998: NO'])
  })

  it('matches percentages written with a sign or in words, and not a bare number for a percentage', () => {
    expect(claimsOf('71% of clients found work.')).toEqual(['71%: yes'])
    expect(claimsOf('71 per cent of clients found work.')).toEqual(['71 per cent: yes'])
    expect(claimsOf('72% of clients found work.')).toEqual(['72%: NO'])
    expect(claimsOf('Growth was 9,999%.')).toEqual(['9,999%: NO'])
  })

  it('matches money with thousands written out, in k, or in millions', () => {
    expect(claimsOf('A $250k campaign and $1.2 million in grants.')).toEqual(['$250k: yes', '$1.2 million: yes'])
    expect(claimsOf('We raised $250,000.00.')).toEqual(['$250,000.00: yes'])
    expect(claimsOf('We raised $5 million.')).toEqual(['$5 million: NO'])
  })

  it('matches a year said with or without "in", and a date by its month and year', () => {
    expect(claimsOf('In 2024 we grew.')).toEqual(['2024: yes'])
    expect(claimsOf('We grew in 2024.')).toEqual(['2024: yes'])
    expect(claimsOf('We opened in March 2024.')).toEqual(['March 2024: yes'])
    expect(claimsOf('We opened on 12 March 2024.')).toEqual(['12 March 2024: yes'])
    expect(claimsOf('We opened on 13 March 2024.')).toEqual(['13 March 2024: NO'])
    expect(claimsOf('We opened in 2019.')).toEqual(['2019: NO'])
  })

  it('reads a range as one claim that needs both ends', () => {
    expect(claimsOf('Each day 10–15 volunteers help.')).toEqual(['10–15: yes'])
    expect(claimsOf('Each day 10 to 20 volunteers help.')).toEqual(['10 to 20: NO'])
    expect(claimsOf('The 2019-2023 plan.')).toEqual(['2019-2023: NO'])
  })

  it('finds no figure inside words, and reads ordinals as their number', () => {
    expect(claimsOf('Our COVID-19 relief and B2B sales of H2O filters.').filter((claim) => /\d/.test(claim))).toEqual([])
    expect(claimsOf('It is our 3rd year.')).toEqual(['3rd: yes'])
    expect(claimsOf('It is our 4th year.')).toEqual(['4th: NO'])
  })

  it('matches a phone number by its digits, whatever separates them', () => {
    expect(claimsOf('Call 512.555.0142 today.')).toEqual(['512.555.0142: yes'])
    expect(claimsOf('Call (512) 555-0199 today.')).toEqual(['(512) 555-0199: NO'])
  })

  it('gives each occurrence its own claim and offsets into the text', () => {
    const text = 'We served 9,999 families; 9,999 is a lot.'
    const claims = findClaims(text, INPUTS)
    expect(claims.map((claim) => [claim.start, claim.end])).toEqual([
      [10, 15],
      [26, 31],
    ])
    for (const claim of claims) expect(text.slice(claim.start, claim.end)).toBe(claim.text)
  })

  it('names the fields a claim was found in', () => {
    expect(findClaims('Maria Delgado, Executive Director, served 9,999 families.', INPUTS).map((claim) => claim.fields)).toEqual([
      ['contactName1'],
      ['contactTitle1'],
      ['impactMetrics'],
    ])
  })

  it('finds the success story’s names and figures in the story, and nowhere else', () => {
    const inputs = { ...INPUTS, successStory: 'After 18 months at the pantry, Dana Ruiz found work at Riverside Bakery.' }
    expect(
      findClaims('Dana Ruiz found work at Riverside Bakery after 18 months.', inputs).map((claim) => [claim.text, claim.fields]),
    ).toEqual([
      ['Dana Ruiz', ['successStory']],
      ['Riverside Bakery', ['successStory']],
      ['18', ['successStory']],
    ])
    expect(claimsOf('Dana Ruiz found work after 18 months.')).toEqual(['Dana Ruiz: NO', '18: NO'])
  })
})

describe('findClaims: names', () => {
  it('finds the organisation by its name, part of it, its possessive and in capitals', () => {
    expect(claimsOf('Harvest Table Food Bank serves families.')).toEqual(['Harvest Table Food Bank: yes'])
    expect(claimsOf("Thanks to Harvest Table's pantries, HARVEST TABLE grew.")).toEqual(['Harvest Table: yes', 'HARVEST TABLE: yes'])
  })

  it('finds people of the contacts and places and programmes of the inputs', () => {
    expect(claimsOf('Call Maria Delgado about the Fresh Start programme in Lane County.')).toEqual([
      'Maria Delgado: yes',
      'Fresh Start: yes',
      'Lane County: yes',
    ])
  })

  it('flags a name the inputs never gave, and a longer name than they gave', () => {
    expect(claimsOf('Amara, a volunteer, leads the seed library.')).toEqual(['Amara: NO'])
    expect(claimsOf('The Lane County Health Department is a partner.')).toEqual(['Lane County Health Department: NO'])
    expect(claimsOf('We work with the Gates Foundation.')).toEqual(['Gates Foundation: NO'])
  })

  it('takes no ordinary word for a name because it opens a sentence', () => {
    expect(claimsOf('Hunger remains. Together we can end it. Every week, families come. Low-income families wait.')).toEqual([])
    expect(claimsOf('The Coastal Resilience Lab studies storms.')).toEqual(['Coastal Resilience Lab: NO'])
  })

  it('takes acronyms for names and months or "I" for none', () => {
    expect(claimsOf('I helped with SNAP enrollment in May.')).toEqual(['SNAP: yes'])
    expect(claimsOf('We follow the WHO guidance.')).toEqual(['WHO: NO'])
  })
})

describe('findClaims on a whole narrative', () => {
  it('flags the invented figure and partner, and nothing else', () => {
    const text = [
      'Harvest Table Food Bank exists to end hunger in Lane County.',
      'In 2024 we served 9,999 families, and 71% of our clients found work.',
      'With the Rotary Club, we delivered 40,000 meals through weekend meal packs and SNAP enrollment help.',
      'To support this work, contact Maria Delgado, Executive Director, at 512-555-0142.',
    ].join(' ')
    expect(
      findClaims(text, INPUTS)
        .filter((claim) => !claim.supported)
        .map((claim) => claim.text),
    ).toEqual(['Rotary Club', '40,000'])
  })

  it('finds nothing unsupported in what the offline drafter writes, which only uses the inputs', () => {
    const { selectedTone: _tone, ...inputs } = FULL_INPUT
    for (const tone of TONES) {
      const unsupported = findClaims(draftNarrative({ ...FULL_INPUT, selectedTone: tone }), inputs).filter((claim) => !claim.supported)
      expect(
        unsupported.map((claim) => claim.text),
        tone,
      ).toEqual([])
    }
  })
})

describe('findClaims: sentence openers', () => {
  it('reads contractions and single letters as the English words they are', () => {
    expect(claimsOf("We're here. Isn't it good? Can't stop. A start. We'd go.")).toEqual([])
  })
})
