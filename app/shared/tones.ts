export const TONES = ['professional', 'conversational', 'passionate', 'academic'] as const
export type Tone = (typeof TONES)[number]
export const DEFAULT_TONE: Tone = 'professional'

export const TONE_DETAILS: Record<Tone, { label: string; description: string }> = {
  professional: { label: 'Professional', description: 'Formal and business-like tone' },
  conversational: { label: 'Conversational', description: 'Friendly and approachable tone' },
  passionate: { label: 'Passionate', description: 'Motivational and uplifting tone' },
  academic: { label: 'Academic', description: 'Scholarly and research-oriented tone' },
}

export function isTone(value: unknown): value is Tone {
  return typeof value === 'string' && (TONES as readonly string[]).includes(value)
}

export function toneLabel(tone: string): string {
  return isTone(tone) ? TONE_DETAILS[tone].label : tone
}
