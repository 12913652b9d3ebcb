/** The engine name of narratives the offline drafter wrote (app/server/generation/drafter/drafter.server.ts). */
export const DRAFTER_ENGINE = 'offline-drafter'

/** Who wrote a narrative, as its page says it. */
export function engineLabel(engine: string) {
  return engine === DRAFTER_ENGINE ? 'Written by the offline drafter' : `Written by ${engine}`
}
