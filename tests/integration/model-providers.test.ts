import { prisma } from '~/server/platform/db.server'
import { startGeneration, subscribe } from '~/server/generation/job/jobs.server'
import { getRemainingQuota } from '~/server/usage/quota.server'
import { resetEngineForTests } from '~/server/generation/engines/engine.server'
import { resetEnvForTests } from '~/server/platform/env.server'
import { DEFAULT_TEXT, THINKING_TEXT, type FakeOpenAI } from '../fixtures/fake-openai'
import { resetDatabase } from '../setup/db'
import { useFakeModel, useOfflineDrafter } from '../setup/model'
import { FULL_INPUT } from '../setup/narrative-input'
import { makeUser } from '../setup/users'
import { type GenerationEvent } from '~/server/generation/job/contract.server'

// "Any OpenAI-compatible model" as people run them in late 2026: each provider's habit is taught to the
// fake model (tests/fixtures/fake-openai.ts), and the real `openai` SDK meets it. docs/operations.md,
// "Model providers"; docs/decisions/012.

let fake: FakeOpenAI

beforeAll(async () => {
  fake = await useFakeModel({ timeoutMs: 2000 })
})
afterAll(async () => {
  useOfflineDrafter()
  await fake.close()
})
beforeEach(async () => {
  await resetDatabase()
  fake.reset()
  useModelNamed('gpt-4')
})

function useModelNamed(name: string) {
  process.env.OPENAI_MODEL = name
  resetEnvForTests()
  resetEngineForTests()
}

async function generate(marker = '') {
  const user = await makeUser()
  const started = await startGeneration(user.id, { ...FULL_INPUT, missionStatement: `${FULL_INPUT.missionStatement} ${marker}` })
  const events: GenerationEvent[] = []
  subscribe(started.id, 0, (event) => events.push(event))
  await started.finished
  const narrative = await prisma.narrative.findUniqueOrThrow({ where: { id: started.id } })
  const streamed = events.flatMap((event) => (event.type === 'delta' ? [event.text] : [])).join('')
  return { narrative, streamed, remaining: await getRemainingQuota(user.id) }
}

describe("OpenAI's reasoning models", () => {
  it.each(['gpt-5-mini', 'o4-mini', 'o3'])(
    'asks %s with max_completion_tokens and no temperature, and writes the narrative',
    async (model) => {
      useModelNamed(model)
      const { narrative } = await generate()
      expect(narrative).toMatchObject({ status: 'complete', generatedNarrative: DEFAULT_TEXT, engine: model })
      expect(fake.requests).toHaveLength(1)
      expect(fake.requests[0].body).toMatchObject({ model, max_completion_tokens: 4000 })
      expect(fake.requests[0].body).not.toHaveProperty('max_tokens')
      expect(fake.requests[0].body).not.toHaveProperty('temperature')
    },
  )

  it('keeps asking a classic model with temperature 0.7 and max_tokens 1000', async () => {
    await generate()
    expect(fake.requests[0].body).toMatchObject({ temperature: 0.7, max_tokens: 1000 })
    expect(fake.requests[0].body).not.toHaveProperty('max_completion_tokens')
  })

  it('learns from the refusal when a reasoning model hides behind another name, and asks it right from then on', async () => {
    useModelNamed('narratives-prod-deployment')
    const first = await generate('[[fake:reasoning_model]]')
    expect(first.narrative).toMatchObject({ status: 'complete', generatedNarrative: DEFAULT_TEXT })
    expect(fake.requests.map((request) => 'max_tokens' in request.body)).toEqual([true, false])
    await generate('[[fake:reasoning_model]]')
    expect(fake.requests).toHaveLength(3)
    expect(fake.requests[2].body).toMatchObject({ max_completion_tokens: 4000 })
  })
})

describe('thinking is never narrative text', () => {
  it.each([
    ['reasoning_content (DeepSeek, vLLM)', '[[fake:reasoning_content]]'],
    ['reasoning (Ollama, OpenRouter)', '[[fake:reasoning]]'],
    ['a <think> block in the content (llama.cpp, raw local servers)', '[[fake:think]]'],
  ])('drops %s from what is streamed and saved', async (_, marker) => {
    const { narrative, streamed } = await generate(marker)
    expect(narrative.status).toBe('complete')
    expect(narrative.generatedNarrative).toBe(DEFAULT_TEXT)
    expect(streamed).toBe(DEFAULT_TEXT)
    expect(streamed).not.toContain(THINKING_TEXT.slice(0, 20))
  })
})

describe("providers' streams", () => {
  it("reads Azure OpenAI's stream: a first chunk with no choices, content filter results on every chunk", async () => {
    expect((await generate('[[fake:azure]]')).narrative).toMatchObject({ status: 'complete', generatedNarrative: DEFAULT_TEXT })
  })

  it("fails, refunded, an answer the provider's content filter stopped halfway", async () => {
    const { narrative, remaining } = await generate('[[fake:azure]] [[fake:content_filter]]')
    expect(narrative.status).toBe('failed')
    expect(remaining).toBe(10)
  })

  it("reads a proxy's stream: comments, keep-alives, CRLF, data: without a space, a usage chunk and no [DONE]", async () => {
    expect((await generate('[[fake:proxy]]')).narrative).toMatchObject({ status: 'complete', generatedNarrative: DEFAULT_TEXT })
  })

  it.each(['400', '401'])('does not retry a %s: one request, failed, refunded', async (status) => {
    const { narrative, remaining } = await generate(`[[fake:${status}]]`)
    expect(narrative.status).toBe('failed')
    expect(remaining).toBe(10)
    expect(fake.requests).toHaveLength(1)
  })
})

it('fails, refunded, a reasoning model that spent its whole answer thinking', async () => {
  await fake.close()
  const thinker = await useFakeModel({ text: `<think>\n${THINKING_TEXT} `.repeat(20) })
  try {
    const { narrative, remaining } = await generate()
    expect(narrative.status).toBe('failed')
    expect(narrative.generatedNarrative).not.toContain('SECRET-THOUGHT')
    expect(remaining).toBe(10)
  } finally {
    await thinker.close()
    fake = await useFakeModel({ timeoutMs: 2000 })
  }
})
