import type { NarrativeInput } from '~/shared/narrative-schema'

// Plain code, not a model call (docs/spec.md#contact-formatting): same output, nothing invented.

// Partial, so a record read back with missing contact columns can be formatted as well.
export type ContactFields = Partial<
  Pick<
    NarrativeInput,
    | 'contactName1'
    | 'contactTitle1'
    | 'contactEmail1'
    | 'contactPhone1'
    | 'contactName2'
    | 'contactTitle2'
    | 'contactEmail2'
    | 'contactPhone2'
  >
>

type Contact = { name?: string; title?: string; email?: string; phone?: string }

const NO_CONTACTS = 'empty'

function contactPairs(input: ContactFields): Array<[string, Contact]> {
  return [
    ['Primary', { name: input.contactName1, title: input.contactTitle1, email: input.contactEmail1, phone: input.contactPhone1 }],
    ['Secondary', { name: input.contactName2, title: input.contactTitle2, email: input.contactEmail2, phone: input.contactPhone2 }],
  ]
}

export function contactsOf(input: ContactFields): Array<{ designation: string; lines: string[] }> {
  return contactPairs(input)
    .map(([designation, contact]) => ({
      designation,
      lines: [contact.name, contact.title, contact.email, contact.phone].map((part) => part?.trim() ?? '').filter(Boolean),
    }))
    .filter((contact) => contact.lines.length > 0)
}

export function formatContacts(input: ContactFields): string {
  const lines = contactPairs(input)
    .map(([designation, contact]) => formatContactLine(designation, contact))
    .filter((line): line is string => line !== null)
  return lines.length > 0 ? lines.join('\n') : NO_CONTACTS
}

export function hasContacts(text: string): boolean {
  const trimmed = text.trim()
  return trimmed !== '' && trimmed.toLowerCase() !== NO_CONTACTS
}

function formatContactLine(designation: string, contact: Contact): string | null {
  const identity = joinPresent([contact.name, contact.title])
  const details = joinPresent([contact.email, contact.phone])
  if (!identity && !details) return null
  if (!identity) return `${designation}: ${details}`
  return details ? `${designation}: ${identity} (${details})` : `${designation}: ${identity}`
}

function joinPresent(parts: Array<string | undefined>): string {
  return parts
    .map((part) => part?.trim() ?? '')
    .filter(Boolean)
    .join(', ')
}
