import type { NarrativeInput } from '~/shared/narrative-schema'
import { unitLabel, type Limit, type VariantFormat } from '~/shared/variant-limits'
import type { EvidenceInput } from '~/shared/evidence'

// The engines' contract: the configured model or the offline drafter. Routes and jobs never see the SDK.

/** A funder's call as a narrative answers it: whom to ask, for how much, what it weighs (most important first), its words and limit. */
export type FunderBrief = {
  funder: string
  /** The amount asked, as the user wrote it ("$25,000"), or null. */
  amount: string | null
  priorities: string[]
  terms: string[]
  maxWords: number | null
}

export type NarrativeEngine = {
  name: string
  /** `brief`, when the narrative answers a funder's call; `ownerId`, whose draft it is. */
  stream(input: NarrativeInput, signal: AbortSignal, brief?: FunderBrief | null, ownerId?: string): AsyncIterable<string>
  /** A variant fitted to its limit; `retry` is the attempt that ran over, for a second, shorter one. */
  streamVariant(task: VariantTask, signal: AbortSignal, retry?: VariantRetry): AsyncIterable<string>
  /** A model's own remarks on the evidence, one a line: the coach's second opinion. The offline drafter has none. */
  reviewEvidence?(input: EvidenceInput, signal: AbortSignal): AsyncIterable<string>
  /** A model's raw reading of a funder's call, one JSON object the caller checks. The offline drafter has none. */
  readCall?(callText: string, signal: AbortSignal): Promise<string>
  /** A model's raw verdict on which priorities the inputs answer, quoting them; checked by narratives/judged-alignment. */
  judgePriorities?(fields: { name: string; value: string }[], priorities: string[], signal: AbortSignal): Promise<string>
}

/** What a variant is written from; an answer to a call's question carries the question and is written like a custom variant. */
export type VariantTask = { input: Required<NarrativeInput>; narrativeText: string; format: VariantFormat; limit: Limit; question?: string }

/** The attempt that ran over its limit, and by how much: the second attempt is told both. */
export type VariantRetry = { text: string; length: number; over: number }

/** No whole sentence fits the limit: failed, and refunded, rather than cut mid-sentence. */
export class UnfitVariantError extends Error {
  constructor(limit: Limit) {
    super(`No whole sentence of the variant fits within ${limit.max} ${unitLabel(limit)}. Try a higher limit.`)
  }
}

/** Nothing the organisation wrote speaks to a call's question: padding would only look like an answer. */
export class UnansweredQuestionError extends Error {
  constructor(question: string) {
    super(
      `Nothing in your narrative answers “${question}”. Add what you do about it to your inputs (Key Programs and Services, or Impact Metrics), write the narrative again, then answer the question.`,
    )
  }
}

/** Thrown when the model went quiet for longer than OPENAI_TIMEOUT_MS, or its stream was cut short. */
export class ModelStreamError extends Error {}

/** The model's engine turns the SDK's own abort into this one, so no caller needs to know the SDK. */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError'
}

/** A stop, told the way the SDK and fetch tell it. */
export function abortError() {
  return new DOMException('The generation was stopped', 'AbortError')
}

/** A model's JSON answer may wrap the object in a code fence or open with its thoughts: the object alone. */
export function jsonObjectIn(answer: string): string {
  const text = answer.replace(/^\s*<think>[\s\S]*?<\/think>/, '')
  return text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)
}

export type DraftRequest = { input: NarrativeInput; brief: FunderBrief | null; variation: number }

/** Where a writer's text goes as it is written: the job's, which streams and saves it. */
export type JobOutput = { append(text: string): void; restart(reason: string): void }

/** An answer, or why there is none: no sentence of the narrative speaks to the question, or none fits the limit. */
export type Answer = { text: string } | { unanswered: true } | { unfit: true }
