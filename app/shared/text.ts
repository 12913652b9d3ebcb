// Shared by browser and server: the text hygiene every field goes through.

// NUL, other C0 controls except tab/newline/carriage return, and the bidirectional
// override/isolate characters that can disguise a name or file name.
const UNSAFE_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u202A-\u202E\u2066-\u2069\u200E\u200F]/g

export function cleanText(value: string): string {
  return value.normalize('NFC').replace(UNSAFE_CHARACTERS, '').trim()
}

export function countWords(text: string): number {
  const words = text.trim().split(/\s+/)
  return words[0] === '' ? 0 : words.length
}
