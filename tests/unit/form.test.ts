import { parseWithZod } from '@conform-to/zod'
import { z } from 'zod'
import { FormShapeError, parseForm } from '~/shared/form'
import { NarrativeInputSchema } from '~/shared/narrative-schema'
import { CALL_FILE_MAX_BYTES, FunderAddFormSchema } from '~/shared/funder-schema'

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

describe('parseForm refuses a form no page of ours sends, before conform reads it', () => {
  const refusal = (data: FormData) => {
    try {
      parseForm(data, NarrativeInputSchema)
    } catch (thrown) {
      return thrown
    }
    return null
  }

  it('refuses a name sent twice where the schema takes one value, however many times', () => {
    for (const repeats of [2, 20_000]) {
      const data = formData(VALID)
      for (let i = 1; i < repeats; i++) data.append('company', 'again')
      const thrown = refusal(data)
      expect(thrown).toBeInstanceOf(FormShapeError)
      expect((thrown as Response).status).toBe(400)
    }
  })

  it('refuses more entries than the schema has fields, and a few hidden ones beside them', () => {
    const data = formData(VALID)
    for (let i = 0; i < 30; i++) data.append(`extra${i}`, 'x')
    expect(refusal(data)).toBeInstanceOf(FormShapeError)
  })

  it('takes a form with its hidden fields: an intent, a mode, an id, where to go next', () => {
    const data = formData({ ...VALID, intent: 'generate', mode: 'stream', id: 'c1', redirectTo: '/dashboard' })
    expect(parseForm(data, NarrativeInputSchema).status).toBe('success')
  })

  it('takes a list field sent as one name many times, up to its schema’s maximum', () => {
    const schema = z.object({ tags: z.array(z.string()).max(3) })
    const data = new FormData()
    for (const tag of ['a', 'b', 'c']) data.append('tags', tag)
    expect(parseForm(data, schema).status).toBe('success')
    data.append('tags', 'd')
    expect(() => parseForm(data, schema)).toThrow(FormShapeError)
  })

  it('takes a list field sent by index, and refuses an index past its maximum, a nested path or an index on a single value', () => {
    const schema = z.object({ name: z.string(), tags: z.array(z.string().optional()).max(3).default([]) })
    const indexed = (entries: [string, string][]) => {
      const data = new FormData()
      for (const [name, value] of entries) data.append(name, value)
      return data
    }
    const taken = parseForm(
      indexed([
        ['name', 'n'],
        ['tags[0]', 'a'],
        ['tags[2]', 'c'],
      ]),
      schema,
    )
    expect(taken.status === 'success' && taken.value.tags).toEqual(['a', undefined, 'c'])
    // One entry that would have conform build a list of 4 billion slots, and others no page sends.
    for (const name of ['tags[4294967294]', 'tags[3]', 'name[0]', 'tags[0].x', 'tags[0][0]', 'other[0]', 'tags[01]x']) {
      expect(
        () =>
          parseForm(
            indexed([
              ['name', 'n'],
              [name, 'a'],
            ]),
            schema,
          ),
        name,
      ).toThrow(FormShapeError)
    }
    // The same index twice is a repeat, counted against the list's maximum like any other.
    expect(() => parseForm(indexed([0, 0, 0, 0].map((i) => [`tags[${i}]`, 'a'])), schema)).toThrow(FormShapeError)
  })

  it("refuses conform's own intents on the server, where our pages never send them, and takes them in the browser", () => {
    const data = formData(VALID)
    data.append('__intent__', JSON.stringify({ type: 'update', payload: { name: 'company', index: 1_000_000, value: 'a' } }))
    expect(refusal(data)).toBeInstanceOf(FormShapeError)
    const state = formData(VALID)
    state.append('__state__', '{}')
    expect(refusal(state)).toBeInstanceOf(FormShapeError)

    // Validating a field as it is typed, in the browser.
    const typed = formData(VALID)
    typed.append('__intent__', JSON.stringify({ type: 'validate', payload: { name: 'company' } }))
    vi.stubGlobal('document', {})
    try {
      expect(parseForm(typed, NarrativeInputSchema).payload).toMatchObject({ company: 'Harvest Table' })
    } finally {
      vi.unstubAllGlobals()
    }
  })
})

describe("the funder form's file", () => {
  const form = (file: File) => {
    const data = new FormData()
    data.append('intent', 'add')
    data.append('name', 'Lane County Community Foundation')
    data.append('file', file)
    return data
  }

  it('is refused in the browser past 5 MB, before a body the server would refuse unread is sent', () => {
    const over = parseForm(form(new File([new Uint8Array(CALL_FILE_MAX_BYTES + 1)], 'call.pdf')), FunderAddFormSchema)
    expect(over.status).toBe('error')
    expect(over.reply().error).toEqual({ file: ['The file is larger than 5 MB.'] })
    expect(parseForm(form(new File([new Uint8Array(CALL_FILE_MAX_BYTES)], 'call.pdf')), FunderAddFormSchema).status).toBe('success')
  })
})
