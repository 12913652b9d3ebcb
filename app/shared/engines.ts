export const DRAFTER_ENGINE = 'offline-drafter'

export function engineLabel(engine: string) {
  return engine === DRAFTER_ENGINE ? 'Written by the offline drafter' : `Written by ${engine}`
}
