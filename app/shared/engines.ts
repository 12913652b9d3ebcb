export const DRAFTER_ENGINE = 'offline-drafter'
/** The engine of a narrative saved with its text through the token API: people wrote it. */
export const MANUAL_ENGINE = 'manual'

export function engineLabel(engine: string) {
  return engine === DRAFTER_ENGINE ? 'Written by the offline drafter' : `Written by ${engine}`
}
