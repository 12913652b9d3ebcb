export const DRAFTER_ENGINE = 'offline-drafter'
/** The engine of a text people wrote: a narrative saved with its text through the token API, or an answer. */
export const MANUAL_ENGINE = 'manual'

/** Who wrote a text, in a few words beside it: the offline drafter, a model by name, or the API's caller. */
export function engineLabel(engine: string) {
  if (engine === DRAFTER_ENGINE) return 'Written by the offline drafter'
  return engine === MANUAL_ENGINE ? 'Saved through the API' : `Written by ${engine}`
}
