import type OpenAI from 'openai'
import type { ChatCompletionChunk, ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import { readServerSentEventBatches, type ServerSentEvent } from '~/server/generation/engines/model-events.server'
import { getEnv, type Env } from '~/server/platform/env.server'
import { modelFetch } from '~/server/generation/engines/model-fetch.server'
import {
  buildAlignmentMessages,
  buildCallReadingMessages,
  buildEvidenceReviewPrompt,
  buildPrompt,
  buildVariantMessages,
} from '~/server/generation/engines/prompt.server'
import { abortError, ModelStreamError, type NarrativeEngine } from '~/server/generation/engines/contract.server'
import type { Limit } from '~/shared/variant-limits'

// The configured model: any OpenAI-compatible server (docs/decisions/012), called through the SDK, its stream read here.

let sdk: Promise<typeof OpenAI> | undefined
/** The SDK is loaded by the first call, not at start-up: most instances run the offline drafter and never need it. */
const loadSdk = () =>
  (sdk ??= import('openai').then(
    (module) => module.default,
    (error: unknown) => {
      sdk = undefined // the next call tries again
      throw error
    },
  ))

export function createModelEngine(env: Env): NarrativeEngine {
  let client: OpenAI | undefined
  const connect = async () => {
    const OpenAI = await loadSdk()
    return (client ??= new OpenAI({
      // Local OpenAI-compatible servers (Ollama, llama.cpp) need no key, but the SDK wants one.
      apiKey: env.OPENAI_API_KEY ?? 'not-needed',
      baseURL: env.OPENAI_BASE_URL,
      maxRetries: 3,
      timeout: env.OPENAI_TIMEOUT_MS,
      fetch: modelFetch,
    }))
  }
  return {
    name: env.OPENAI_MODEL,
    stream: (input, signal, brief) =>
      streamFromModel(connect(), [{ role: 'user', content: buildPrompt(input, brief) }], MAX_ANSWER_TOKENS, signal),
    streamVariant: (task, signal, retry) =>
      streamFromModel(connect(), buildVariantMessages(task, retry), variantAnswerTokens(task.limit), signal),
    reviewEvidence: (input, signal) =>
      streamFromModel(connect(), [{ role: 'user', content: buildEvidenceReviewPrompt(input) }], REVIEW_ANSWER_TOKENS, signal),
    readCall: (callText, signal) => askForJson(connect(), buildCallReadingMessages(callText), signal),
    judgePriorities: (fields, priorities, signal) => askForJson(connect(), buildAlignmentMessages(fields, priorities), signal),
  }
}

/** Room for twenty priorities and questions and the terms, or twenty verdicts with their quotes. */
const JSON_ANSWER_TOKENS = 2000

/** One answer, not streamed, asked for as a JSON object (providers that ignore the request still answer). */
async function askForJson(connecting: Promise<OpenAI>, messages: ChatCompletionMessageParam[], signal: AbortSignal): Promise<string> {
  const { OPENAI_MODEL } = getEnv()
  const client = await connecting
  const call = () =>
    client.chat.completions.create(
      {
        model: OPENAI_MODEL,
        messages,
        ...samplingParameters(OPENAI_MODEL, JSON_ANSWER_TOKENS),
        response_format: { type: 'json_object' },
      },
      { signal },
    )
  const answer = await call().catch(async (error) => {
    if (!(await refusedClassicParameters(error))) throw error
    askedAsReasoningModel.add(OPENAI_MODEL)
    return call()
  })
  return answer.choices[0]?.message?.content ?? ''
}

/** Three short remarks, with room to spare. */
const REVIEW_ANSWER_TOKENS = 400

/** The answer's cap: about 700 words, room for a 400-word narrative. */
const MAX_ANSWER_TOKENS = 1000
/** OpenAI's reasoning models (o1, o3, o4-mini, gpt-5…) take `max_completion_tokens`, which counts their reasoning, and no temperature. */
const REASONING_MODEL = /^(o\d|gpt-5)/i
const MAX_REASONING_MODEL_TOKENS = 4000
/** Models whose provider refused the classic parameters: asked the reasoning way from then on. */
const askedAsReasoningModel = new Set<string>()

function samplingParameters(model: string, maxTokens: number) {
  return REASONING_MODEL.test(model) || askedAsReasoningModel.has(model)
    ? { max_completion_tokens: MAX_REASONING_MODEL_TOKENS }
    : { temperature: 0.7, max_tokens: maxTokens }
}

/** Room for a variant and more: one cut by the token cap ends mid-sentence, one over the limit is asked again (docs/decisions/018). */
function variantAnswerTokens(limit: Limit) {
  const expected = limit.unit === 'words' ? limit.max * 2 : limit.max / 3
  return Math.min(MAX_REASONING_MODEL_TOKENS, Math.ceil(expected * 2) + 100)
}

/** A 400 that names max_tokens or temperature: a reasoning model behind a name we did not recognise. */
async function refusedClassicParameters(error: unknown) {
  const { BadRequestError } = await loadSdk()
  return error instanceof BadRequestError && (error.param === 'max_tokens' || error.param === 'temperature')
}

async function* streamFromModel(
  connecting: Promise<OpenAI>,
  messages: ChatCompletionMessageParam[],
  maxTokens: number,
  signal: AbortSignal,
) {
  const env = getEnv()
  const idle = new AbortController()
  const idleTimer = setTimeout(() => idle.abort(), env.OPENAI_TIMEOUT_MS)
  try {
    // The SDK makes the call (auth, base URL, retries, timeout); we read the raw event stream.
    const client = await connecting
    const call = () =>
      client.chat.completions
        .create(
          {
            model: env.OPENAI_MODEL,
            messages,
            ...samplingParameters(env.OPENAI_MODEL, maxTokens),
            stream: true as const,
          },
          { signal: AbortSignal.any([signal, idle.signal]) },
        )
        .asResponse()
    const response = await call().catch(async (error) => {
      if (!(await refusedClassicParameters(error))) throw error
      askedAsReasoningModel.add(env.OPENAI_MODEL)
      return call()
    })
    const visible = withoutLeadingThoughts()
    let answered = false
    let finished = false
    for await (const events of readServerSentEventBatches(response.body!)) {
      idleTimer.refresh()
      const read = readChunks(events)
      finished ||= read.finished
      const text = visible(read.text)
      answered ||= text.trim() !== ''
      if (text) yield text
      if (read.error) throw read.error
      if (read.done) break
    }
    const rest = visible(null)
    answered ||= rest.trim() !== ''
    if (rest) yield rest
    if (signal.aborted) throw abortError()
    if (idle.signal.aborted) throw new ModelStreamError('The model stopped responding')
    if (!finished) throw new ModelStreamError('The model stream ended early')
    // A reasoning model can spend its whole budget thinking: that is no narrative, and it is refunded.
    if (!answered) throw new ModelStreamError('The model wrote no answer')
  } catch (error) {
    if (signal.aborted) throw abortError()
    if (idle.signal.aborted) throw new ModelStreamError('The model stopped responding')
    throw error
  } finally {
    clearTimeout(idleTimer)
  }
}

/** What one read of the stream says, its pieces joined. Only `content` is text: reasoning models' thinking is never read. */
function readChunks(events: ServerSentEvent[]): { text: string; finished: boolean; done?: boolean; error?: Error } {
  let text = ''
  let finished = false
  for (const { data } of events) {
    if (data === '[DONE]') return { text, finished, done: true }
    const chunk = JSON.parse(data) as ChatCompletionChunk & { error?: { message?: string } }
    if (chunk.error) return { text, finished, error: new ModelStreamError(chunk.error.message ?? 'The model reported an error') }
    const choice = chunk.choices?.[0]
    if (choice?.delta?.content) text += choice.delta.content
    // Azure OpenAI and others stop an answer their content filter flags: what came before is not a narrative.
    if (choice?.finish_reason === 'content_filter')
      return { text, finished, error: new ModelStreamError("The provider's content filter stopped the answer") }
    if (choice?.finish_reason) finished = true
  }
  return { text, finished }
}

const THINK_OPEN = '<think>'
const THINK_CLOSE = '</think>'

/** Drops the `<think>` block that local servers (llama.cpp, raw Ollama, vLLM) send before the answer; call with null at the end. */
function withoutLeadingThoughts() {
  let state: 'deciding' | 'thinking' | 'after-thoughts' | 'answering' = 'deciding'
  let held = ''
  return (text: string | null): string => {
    if (state === 'answering') return text ?? ''
    if (state === 'after-thoughts') {
      // The blank lines between the thoughts and the answer are not part of the answer.
      const answer = (text ?? '').trimStart()
      if (answer) state = 'answering'
      return answer
    }
    held += text ?? ''
    if (state === 'deciding') {
      const start = held.trimStart()
      if (start.length < THINK_OPEN.length && THINK_OPEN.startsWith(start) && text !== null) return ''
      if (!start.startsWith(THINK_OPEN)) {
        state = 'answering'
        return take()
      }
      state = 'thinking'
    }
    const close = held.indexOf(THINK_CLOSE)
    if (close === -1) {
      // Keep only what could be the start of the closing tag.
      held = held.slice(-THINK_CLOSE.length)
      return ''
    }
    held = held.slice(close + THINK_CLOSE.length).trimStart()
    state = held ? 'answering' : 'after-thoughts'
    return take()
  }
  function take() {
    const out = held
    held = ''
    return out
  }
}
