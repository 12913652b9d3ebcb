import { parseWithZod } from '@conform-to/zod'
import { parseForm } from '~/shared/form'
import { NarrativeInputSchema } from '~/shared/narrative-schema'

function formData(values: Record<string, string>) {
  const data = new FormData()
  for (const [name, value] of Object.entries(values)) data.append(name, value)
  return data
}

const VALID = {
  company: 'Harvest Table',
  website: '',
  contactName1: 'Maria Delgado',
  contactEmail1: 'maria@harvesttable.org',
  missionStatement: 'End hunger.',
  keyPrograms: 'Pantries.',
  impactMetrics: '38,000 people.',
  selectedTone: 'professional',
}

describe('parseForm', () => {
  it.each([
    ['a valid form, with an empty optional field', VALID],
    ['a form with a required field left empty', { ...VALID, company: '' }],
    ['a form with an invalid email and an unknown tone', { ...VALID, contactEmail1: 'nope', selectedTone: 'shouty' }],
  ])('reads %s exactly as conform does', (_name, values) => {
    const expected = parseWithZod(formData(values), { schema: NarrativeInputSchema })
    // Twice: the second call reuses the coerced schema built by the first.
    for (let i = 0; i < 2; i++) {
      const submission = parseForm(formData(values), NarrativeInputSchema)
      expect(submission.status).toBe(expected.status)
      expect(submission.reply()).toEqual(expected.reply())
      expect(submission.status === 'success' && submission.value).toEqual(expected.status === 'success' && expected.value)
    }
  })
})
