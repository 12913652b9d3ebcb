import OpenAI from 'openai'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { readServerSentEventBatches, type ServerSentEvent } from '~/server/generation/server-sent-events.server'
import type { NarrativeInput } from '~/shared/narrative-schema'
import { DRAFTER_ENGINE, draftNarrative } from '~/server/generation/drafter.server'
import { getEnv } from '~/server/platform/env.server'
import { modelFetch } from '~/server/generation/model-fetch.server'
import { buildPrompt } from '~/server/generation/prompt.server'

/** What writes narratives: the configured model, or the offline drafter. Routes never see the SDK. */
export type NarrativeEngine = {
  name: string
  stream(input: NarrativeInput, signal: AbortSignal): AsyncIterable<string>
}

/** Thrown when the model went quiet for longer than OPENAI_TIMEOUT_MS, or its stream was cut short. */
export class ModelStreamError extends Error {}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error instanceof OpenAI.APIUserAbortError)
}

let engine: NarrativeEngine | undefined

export function getEngine(): NarrativeEngine {
  engine ??= createEngine()
  return engine
}

function createEngine(): NarrativeEngine {
  const env = getEnv()
  if (!env.OPENAI_API_KEY && !env.OPENAI_BASE_URL) return offlineDrafter
  const client = new OpenAI({
    // Local OpenAI-compatible servers (Ollama, llama.cpp) need no key, but the SDK wants one.
    apiKey: env.OPENAI_API_KEY ?? 'not-needed',
    baseURL: env.OPENAI_BASE_URL,
    maxRetries: 3,
    timeout: env.OPENAI_TIMEOUT_MS,
    fetch: modelFetch,
  })
  return { name: env.OPENAI_MODEL, stream: (input, signal) => streamFromModel(client, input, signal) }
}

async function* streamFromModel(client: OpenAI, input: NarrativeInput, signal: AbortSignal) {
  const env = getEnv()
  const idle = new AbortController()
  const idleTimer = setTimeout(() => idle.abort(), env.OPENAI_TIMEOUT_MS)
  try {
    // The SDK makes the call (auth, base URL, retries, timeout); we read the raw event stream.
    const request = {
      model: env.OPENAI_MODEL,
      messages: [{ role: 'user' as const, content: buildPrompt(input) }],
      temperature: 0.7,
      max_tokens: 1000,
      stream: true as const,
    }
    const response = await client.chat.completions.create(request, { signal: AbortSignal.any([signal, idle.signal]) }).asResponse()
    let finished = false
    for await (const events of readServerSentEventBatches(response.body!)) {
      idleTimer.refresh()
      const read = readChunks(events)
      finished ||= read.finished
      if (read.text) yield read.text
      if (read.error) throw read.error
      if (read.done) break
    }
    // Tell a stop, a stall and a cut-off stream apart.
    if (signal.aborted) throw abortError()
    if (idle.signal.aborted) throw new ModelStreamError('The model stopped responding')
    if (!finished) throw new ModelStreamError('The model stream ended early')
  } catch (error) {
    if (signal.aborted) throw abortError()
    if (idle.signal.aborted) throw new ModelStreamError('The model stopped responding')
    throw error
  } finally {
    clearTimeout(idleTimer)
  }
}

/**
 * What one read of the model's stream says. Its pieces go on as one: the reader sees the same text,
 * and a busy server, which finds several pieces per read, does less per piece.
 */
function readChunks(events: ServerSentEvent[]): { text: string; finished: boolean; done?: boolean; error?: Error } {
  let text = ''
  let finished = false
  for (const { data } of events) {
    if (data === '[DONE]') return { text, finished, done: true }
    const chunk = JSON.parse(data) as ChatCompletionChunk & { error?: { message?: string } }
    if (chunk.error) return { text, finished, error: new ModelStreamError(chunk.error.message ?? 'The model reported an error') }
    const choice = chunk.choices?.[0]
    if (choice?.delta?.content) text += choice.delta.content
    if (choice?.finish_reason) finished = true
  }
  return { text, finished }
}

const DRAFT_PIECE_WORDS = 3
const DRAFT_PIECE_DELAY_MS = 12

/** Writes from the user's own inputs, streamed in small pieces like a model would. */
export const offlineDrafter: NarrativeEngine = {
  name: DRAFTER_ENGINE,
  async *stream(input, signal) {
    const pieces = draftNarrative(input).match(new RegExp(`(\\S+\\s*){1,${DRAFT_PIECE_WORDS}}`, 'g')) ?? []
    for (const piece of pieces) {
      if (signal.aborted) throw abortError()
      yield piece
      await delay(DRAFT_PIECE_DELAY_MS)
    }
  },
}

function abortError() {
  return new DOMException('The generation was stopped', 'AbortError')
}

function delay(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** Tests swap the environment between cases. */
export function resetEngineForTests() {
  engine = undefined
}
