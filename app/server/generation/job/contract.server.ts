export type GenerationStatus = 'generating' | 'complete' | 'stopped' | 'failed'
export type FinalStatus = Exclude<GenerationStatus, 'generating'>

export const GENERATION_FAILED = 'An error occurred while generating the narrative. Please try again.'

/** A `restart` discards the text so far: the pieces after it are a new attempt (a variant asked again to fit its limit). */
export type GenerationEvent =
  | { type: 'delta'; seq: number; text: string }
  | { type: 'restart'; reason: string }
  | { type: 'done'; status: 'complete' | 'stopped'; text: string }
  | { type: 'error'; error: string }

export type FinalEvent = Extract<GenerationEvent, { type: 'done' | 'error' }>
