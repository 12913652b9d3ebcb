import { parseWithZod } from '@conform-to/zod'
import { z } from 'zod'
import { FormShapeError, maxEntriesOf, parseForm } from '~/shared/form'
import { NarrativeInputSchema } from '~/shared/narrative-schema'
import { CALL_FILE_MAX_BYTES, FunderAddFormSchema, FunderEditFormSchema, NEW_PRIORITIES_MAX } from '~/shared/funder-schema'
import { ForFunderSchema } from '~/shared/for-funder-schema'
import { NARRATIVE_TEXT_MAX, NarrativeTextSchema } from '~/shared/narrative-text'
import { ChangePasswordSchema, SignupSchema } from '~/shared/auth-schemas'
import { BODY_LIMITS, FORM_ENTRIES_MAX } from '~/server/edge/body-limit.server'

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

describe('the body caps fit every form we send (docs/decisions/025)', () => {
  const DashboardSchema = NarrativeInputSchema.merge(ForFunderSchema)
  const urlEncoded = (form: Record<string, string>) => new URLSearchParams(form).toString().length
  /** As a browser sends it: each part's boundary line and headers, then its value in UTF-8. */
  const multipartBytes = (form: Record<string, string>) =>
    Object.entries(form).reduce((sum, [name, value]) => sum + 100 + name.length + Buffer.byteLength(value.replace(/\n/g, '\r\n')), 100)
  /** Every text field of a form at its longest, in one script. */
  const atLimits = (fields: Record<string, number>, unit: string) =>
    Object.fromEntries(Object.entries(fields).map(([name, max]) => [name, unit.repeat(max)]))
  const dashboard = {
    ...Object.fromEntries(
      Object.entries({ company: 200, website: 500, contactName1: 200, contactTitle1: 200, contactEmail1: 254, contactPhone1: 50 }).flatMap(
        ([name, max]) => [
          [name, max],
          [name.replace('1', '2'), max],
        ],
      ),
    ),
    missionStatement: 5000,
    keyPrograms: 5000,
    impactMetrics: 5000,
    targetAudience: 5000,
    geographicFocus: 5000,
    successStory: 2000,
    amountRequested: 40,
  }
  const funderForm = {
    name: 200,
    terms: 30 * 82,
    ...Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`priorities[${i}]`, 300])),
    newPriorities: NEW_PRIORITIES_MAX,
    ...Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`questionText[${i}]`, 1000])),
  }

  it(`caps fields and parts at ${FORM_ENTRIES_MAX}, above every form's most entries`, () => {
    const schemas = [DashboardSchema, FunderEditFormSchema, FunderAddFormSchema, NarrativeTextSchema, SignupSchema, ChangePasswordSchema]
    expect(Math.max(...schemas.map(maxEntriesOf))).toBeLessThan(FORM_ENTRIES_MAX)
  })

  it('takes the long-text forms at their limits URL-encoded in English, and multipart in any script', () => {
    const english = 'Families near the river, in Lane County; “every” pantry.\n'
    for (const form of [dashboard, funderForm, { generatedNarrative: NARRATIVE_TEXT_MAX }]) {
      const prose = Object.fromEntries(Object.entries(form).map(([name, max]) => [name, english.repeat(max).slice(0, max)]))
      expect(urlEncoded(prose)).toBeLessThan(BODY_LIMITS.urlencoded)
      // Chinese: 3 bytes a character in UTF-8, and 9 URL-encoded.
      expect(multipartBytes(atLimits(form, '水'))).toBeLessThan(BODY_LIMITS.form)
    }
  })
})

describe('a reply to a form with a value past its limit', () => {
  it('leaves that value out, says the text was too long, and keeps the rest, in lists too', () => {
    const data = formData({ name: 'Long Fund', 'priorities[1]': 'p'.repeat(700), 'priorities[0]': 'Food security' })
    const reply = parseForm(data, FunderEditFormSchema).reply({ formErrors: ['Not saved'] })
    expect(reply.initialValue).toMatchObject({ name: 'Long Fund', priorities: ['Food security', undefined] })
    expect(JSON.stringify(reply)).not.toContain('ppppp')
    // Why the field is empty first (a page shows a field's first error), then its own error.
    expect(reply.error?.['priorities[1]']?.[0]).toBe(
      'The pasted text was too long (700 characters; at most 300), so it was not kept. Paste a shorter text.',
    )
    expect(reply.error?.['priorities[1]']).toHaveLength(2)
    expect(reply.error?.['']).toEqual(['Not saved'])
  })

  it('leaves out a value a little past its limit too, with its own error alone', () => {
    const data = formData({ name: 'n'.repeat(201) })
    const reply = parseForm(data, FunderEditFormSchema).reply()
    expect(JSON.stringify(reply)).not.toContain('nnnnn')
    expect(reply.error?.name).toHaveLength(1)
    expect(reply.error?.name?.[0]).not.toMatch(/pasted text/)
  })
})
