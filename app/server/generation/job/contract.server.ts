// The job's contract: how a generation (a narrative or a variant being written) stands, what its
// writer sends, and what those who follow it receive.

export type GenerationStatus = 'generating' | 'complete' | 'stopped' | 'failed'
export type FinalStatus = Exclude<GenerationStatus, 'generating'>

export const GENERATION_FAILED = 'An error occurred while generating the narrative. Please try again.'

/** Where a job's writer sends its text. `restart` discards the attempt so far: a new one follows. */
export type JobOutput = { append(text: string): void; restart(reason: string): void }

/**
 * What subscribers receive: numbered text pieces, then one final event. A `restart` discards the text
 * so far: the pieces after it are a new attempt (a variant asked again to fit its limit).
 */
export type GenerationEvent =
  | { type: 'delta'; seq: number; text: string }
  | { type: 'restart'; reason: string }
  | { type: 'done'; status: 'complete' | 'stopped'; text: string }
  | { type: 'error'; error: string }

export type FinalEvent = Extract<GenerationEvent, { type: 'done' | 'error' }>
