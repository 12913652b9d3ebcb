import type { EvidenceField } from '~/shared/evidence'
import { normal, readApplications, readCalls, readOrganisations } from '../setup/corpus'

// The reading corpus's labels point at text that is really there: a label that drifted from its text
// would make every figure measured on it wrong (tests/fixtures/corpus/README.md).

const calls = readCalls()
const organisations = readOrganisations()
const callsBySlug = new Map(calls.map((call) => [call.slug, call]))

it('holds at least 30 calls and 30 organisations from five countries, with 150 typed lines of evidence, and others held out', () => {
  // Written after the code that reads them, by a hand that never saw it: the figures on them are the honest ones.
  expect(readCalls('held-out/calls').length).toBeGreaterThanOrEqual(10)
  expect(readOrganisations('held-out/organisations').length).toBeGreaterThanOrEqual(8)
  expect(calls.length).toBeGreaterThanOrEqual(30)
  expect(organisations.length).toBeGreaterThanOrEqual(30)
  expect(new Set(calls.map((call) => call.country)).size).toBe(5)
  expect(organisations.flatMap((organisation) => organisation.evidence).length).toBeGreaterThanOrEqual(150)
})

describe.each([...calls, ...readCalls('held-out/calls')].map((call) => [call.slug, call] as const))('the call %s', (_, call) => {
  const text = normal(call.text)
  const { priorities, questions, notPriorities } = call.labels

  it('labels only what its text says, word for word', () => {
    for (const label of [...priorities, ...questions.map((question) => question.text), ...notPriorities])
      expect(text, label).toContain(normal(label))
  })

  it('never labels a line as both a priority and not one', () => {
    const not = new Set(notPriorities.map(normal))
    expect(priorities.filter((priority) => not.has(normal(priority)))).toEqual([])
  })

  it('states its amounts in order', () => {
    const { amountMin, amountMax } = call.labels
    if (amountMin !== null && amountMax !== null) expect(amountMin).toBeLessThanOrEqual(amountMax)
  })
})

describe.each(
  [...organisations, ...readOrganisations('held-out/organisations')].map((organisation) => [organisation.slug, organisation] as const),
)('the organisation %s', (_, organisation) => {
  const field = (name: EvidenceField) => normal(organisation.inputs[name] ?? '')

  it('types lines copied word for word from the field it names', () => {
    for (const { field: name, line } of organisation.evidence) expect(field(name), line).toContain(normal(line))
  })

  it('is paired with calls of the corpus, every one of their priorities labelled once, each answer copied from its field', () => {
    for (const [slug, labels] of Object.entries(organisation.alignment)) {
      const call = callsBySlug.get(slug)
      expect(call, slug).toBeDefined()
      expect(labels.map((label) => normal(label.priority)).sort()).toEqual(call!.labels.priorities.map(normal).sort())
      for (const label of labels) if (label.answeredBy) expect(field(label.field!), label.answeredBy).toContain(normal(label.answeredBy))
    }
  })
})

const heldOutOrganisations = readOrganisations('held-out/organisations')
const heldOutCalls = readCalls('held-out/calls')
describe.each(
  [...readApplications(), ...readApplications('held-out/applications')].map((application) => [application.slug, application] as const),
)('the application %s', (slug, application) => {
  const textIn = (place: 'narrative' | number) => (place === 'narrative' ? application.narrative : (application.answers[place]?.text ?? ''))

  it("is one organisation's, answering its call's own questions word for word", () => {
    expect(application.organisation).toBe(slug)
    expect([...organisations, ...heldOutOrganisations].map((organisation) => organisation.slug)).toContain(slug)
    const call = callsBySlug.get(application.call) ?? heldOutCalls.find((candidate) => candidate.slug === application.call)
    const questions = call?.labels.questions.map((question) => question.text) ?? []
    for (const { question } of application.answers) expect(questions, question).toContain(question)
  })

  it('labels figures found once in the text each names, in two different texts', () => {
    for (const { a, b } of application.conflicts) {
      expect(a.in).not.toBe(b.in)
      for (const side of [a, b]) expect(textIn(side.in).split(side.figure).length - 1, side.figure).toBe(1)
    }
  })
})
