import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai'
import { DEFAULT_TEXT, startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai'

describe('fake-openai fixture', () => {
  let fake: FakeOpenAI

  beforeAll(async () => {
    fake = await startFakeOpenAI({ firstTokenDelayMs: 20, pieceIntervalMs: 1 })
  })
  afterAll(async () => {
    await fake.close()
  })
  beforeEach(() => fake.reset())

  /** The clients' own timeout, unless a test sets one. */
  const CLIENT_TIMEOUT_MS = 10_000
  /**
   * How soon an abort or a short timeout must end a call: generous for a busy machine, yet half the clients'
   * own timeout, so a call that only that timeout ended fails.
   */
  const PROMPTLY_MS = CLIENT_TIMEOUT_MS / 2

  const client = (opts: { maxRetries?: number; timeout?: number } = {}) =>
    new OpenAI({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: opts.maxRetries ?? 0, timeout: opts.timeout ?? CLIENT_TIMEOUT_MS })

  const stream = (openai: OpenAI, content: string, signal?: AbortSignal) =>
    openai.chat.completions.create(
      { model: 'gpt-4o-mini', stream: true, temperature: 0.7, max_tokens: 900, messages: [{ role: 'user', content }] },
      { signal },
    )

  async function collect(content: string, openai = client()) {
    let text = ''
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = []
    for await (const chunk of await stream(openai, content)) {
      chunks.push(chunk)
      text += chunk.choices[0]?.delta.content ?? ''
    }
    return { text, chunks }
  }

  it('streams the default narrative in OpenAI chunk format and records the request', async () => {
    const { text, chunks } = await collect('Write my story')

    expect(text).toBe(DEFAULT_TEXT)
    expect(DEFAULT_TEXT.split(/\s+/).length).toBeGreaterThanOrEqual(350)
    expect(chunks.length).toBeGreaterThan(100) // many small pieces, not one blob
    expect(chunks[0]).toMatchObject({
      object: 'chat.completion.chunk',
      model: 'gpt-4o-mini',
      choices: [{ index: 0, delta: { role: 'assistant' } }],
    })
    expect(chunks.at(-1)!.choices[0].finish_reason).toBe('stop')
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1)

    expect(fake.requests).toHaveLength(1)
    expect(fake.requests[0].body).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.7, max_tokens: 900, stream: true })
    expect(fake.requests[0].body.messages).toEqual([{ role: 'user', content: 'Write my story' }])
    expect(fake.requests[0].headers.authorization).toBe('Bearer test')
    expect(fake.counts.normal).toBe(1)
  })

  it('serves non-streaming chat.completion JSON', async () => {
    const res = await client().chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
    expect(res.object).toBe('chat.completion')
    expect(res.model).toBe('gpt-4o')
    expect(res.choices[0].message.content).toBe(DEFAULT_TEXT)
    expect(res.choices[0].finish_reason).toBe('stop')
  })

  it('accepts /chat/completions without the /v1 prefix', async () => {
    const openai = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL.replace(/\/v1$/, ''), maxRetries: 0 })
    const res = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
    expect(res.choices[0].message.content).toBe(DEFAULT_TEXT)
  })

  it('429 is retried by the SDK (maxRetries 2 → 3 requests) and then surfaces as APIError 429', async () => {
    const error = await collect('go [[fake:429]]', client({ maxRetries: 2 })).catch((e) => e)
    expect(error).toBeInstanceOf(APIError)
    expect(error.status).toBe(429)
    expect(error.code).toBe('rate_limit_exceeded')
    expect(fake.counts['429']).toBe(3)
  })

  it('500 set globally via setMode is retried and surfaces as APIError 500', async () => {
    fake.setMode('500')
    const error = await collect('go', client({ maxRetries: 2 })).catch((e) => e)
    expect(error).toBeInstanceOf(APIError)
    expect(error.status).toBe(500)
    expect(fake.counts['500']).toBe(3)
  })

  it('a per-request marker overrides the global mode; delay marker overrides first-token delay', async () => {
    fake.setMode('500')
    const started = Date.now()
    const res = await client().chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'ok [[fake:normal]] [[fake:delay=600]]' }],
    })
    expect(Date.now() - started).toBeGreaterThanOrEqual(550)
    expect(res.choices[0].message.content).toBe(DEFAULT_TEXT)
    expect(fake.counts).toMatchObject({ normal: 1, '500': 0 })
  })

  it('drop mode breaks the iteration mid-stream', async () => {
    let received = ''
    const iterate = async () => {
      for await (const chunk of await stream(client(), 'go [[fake:drop]]')) received += chunk.choices[0]?.delta.content ?? ''
    }
    await expect(iterate()).rejects.toThrow()
    expect(received.length).toBeGreaterThan(0)
    expect(received.length).toBeLessThan(DEFAULT_TEXT.length)
  })

  // NB: the openai SDK swallows AbortError inside stream iteration: aborting a
  // stream that already has headers ENDS the for-await loop without throwing.
  // Production code must check signal.aborted / finish_reason after the loop.
  it('stall mode goes silent until the client aborts; the SDK then ends iteration early', async () => {
    const controller = new AbortController()
    // 300 ms of silence, then the client gives up.
    let abortedAt: number | undefined
    setTimeout(() => ((abortedAt = Date.now()), controller.abort()), 300)
    let received = ''
    let finish: string | null = null
    for await (const chunk of await stream(client(), 'go [[fake:stall]]', controller.signal)) {
      received += chunk.choices[0]?.delta.content ?? ''
      finish = chunk.choices[0]?.finish_reason ?? finish
    }
    // Silent until the abort, and over as soon as it came.
    expect(abortedAt).toBeDefined()
    expect(Date.now() - abortedAt!).toBeLessThan(PROMPTLY_MS)
    expect(controller.signal.aborted).toBe(true)
    expect(finish).toBeNull()
    expect(received.length).toBeGreaterThan(0) // the first piece arrived before the silence
    expect(received.length).toBeLessThan(10)
    expect(fake.counts.stall).toBe(1)
  })

  it('hang mode never sends headers: SDK timeout fires, and an abort rejects create()', async () => {
    const started = Date.now()
    await expect(collect('go [[fake:hang]]', client({ timeout: 300 }))).rejects.toBeInstanceOf(APIConnectionTimeoutError)
    // The 300 ms asked for, not the clients' own 10 s.
    expect(Date.now() - started).toBeLessThan(PROMPTLY_MS)

    const controller = new AbortController()
    let abortedAt: number | undefined
    setTimeout(() => ((abortedAt = Date.now()), controller.abort()), 300)
    await expect(stream(client(), 'go [[fake:hang]]', controller.signal)).rejects.toBeInstanceOf(APIUserAbortError)
    expect(Date.now() - abortedAt!).toBeLessThan(PROMPTLY_MS)
  })

  it('slow mode spaces pieces ~300 ms apart', async () => {
    const controller = new AbortController()
    const times: number[] = []
    for await (const chunk of await stream(client(), '[[fake:slow]] [[fake:delay=0]]', controller.signal)) {
      if (chunk.choices[0]?.delta.content) times.push(Date.now())
      if (times.length === 3) break // breaking out aborts the request
    }
    expect(times[2] - times[0]).toBeGreaterThanOrEqual(550)
  })

  it('handles 500 concurrent streams', async () => {
    const short = await startFakeOpenAI({ firstTokenDelayMs: 50, pieceIntervalMs: 5, text: (prompt) => `Echo: ${prompt}. `.repeat(5) })
    try {
      const openai = new OpenAI({ apiKey: 'test', baseURL: short.baseURL, maxRetries: 0 })
      const results = await Promise.all(
        Array.from({ length: 500 }, async (_, i) => {
          let text = ''
          const s = await openai.chat.completions.create({ model: 'm', stream: true, messages: [{ role: 'user', content: `n${i}` }] })
          for await (const chunk of s) text += chunk.choices[0]?.delta.content ?? ''
          return text
        }),
      )
      results.forEach((text, i) => expect(text).toBe(`Echo: n${i}. `.repeat(5)))
      expect(short.requests).toHaveLength(500)
    } finally {
      await short.close()
    }
  })

  it("answers a reasoning model asked with max_tokens or a temperature with OpenAI's 400s, which the SDK does not retry", async () => {
    const ask = (body: object) =>
      client({ maxRetries: 3 }).chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'Hi' }], ...body })
    const tokens = await ask({ max_tokens: 10 }).catch((error) => error)
    expect(tokens).toBeInstanceOf(OpenAI.BadRequestError)
    expect(tokens).toMatchObject({ status: 400, param: 'max_tokens', code: 'unsupported_parameter' })
    const temperature = await ask({ temperature: 0.7 }).catch((error) => error)
    expect(temperature).toMatchObject({ status: 400, param: 'temperature', code: 'unsupported_value' })
    expect(fake.requests).toHaveLength(2)
    const answer = await ask({ max_completion_tokens: 100 })
    expect(answer.choices[0].message.content).toBe(DEFAULT_TEXT)
  })

  it('streams thinking in its own fields, and Azure and proxy habits, that the SDK reads as chunks', async () => {
    const chunks = await collect('[[fake:reasoning_content]] [[fake:reasoning]] [[fake:azure]] [[fake:proxy]]')
    expect(chunks.text).toBe(DEFAULT_TEXT)
    const deltas = chunks.chunks.map((chunk) => chunk.choices[0]?.delta as Record<string, unknown> | undefined)
    expect(deltas.some((delta) => typeof delta?.reasoning_content === 'string')).toBe(true)
    expect(deltas.some((delta) => typeof delta?.reasoning === 'string')).toBe(true)
    expect(chunks.chunks[0]).toMatchObject({ choices: [], prompt_filter_results: expect.any(Array) })
    expect(chunks.chunks.at(-1)).toMatchObject({ choices: [], usage: expect.any(Object) })
  })
})
