import { formatContacts, hasContacts } from '~/shared/contacts'

const jane = {
  contactName1: 'Jane Doe',
  contactTitle1: 'Executive Director',
  contactEmail1: 'jane@x.org',
  contactPhone1: '555-0100',
}

describe('formatContacts', () => {
  it('writes one line per contact with designation, name, title and details in parentheses', () => {
    const text = formatContacts({
      ...jane,
      contactName2: 'John Roe',
      contactTitle2: 'Board Chair',
      contactEmail2: 'john@x.org',
      contactPhone2: '555-0101',
    })
    expect(text).toBe(
      'Primary: Jane Doe, Executive Director (jane@x.org, 555-0100)\nSecondary: John Roe, Board Chair (john@x.org, 555-0101)',
    )
  })

  it('leaves out missing parts without empty parentheses or dangling commas', () => {
    expect(formatContacts({ contactName1: 'Jane Doe', contactEmail1: 'jane@x.org' })).toBe('Primary: Jane Doe (jane@x.org)')
    expect(formatContacts({ contactName1: 'Jane Doe', contactTitle1: 'Director' })).toBe('Primary: Jane Doe, Director')
    expect(formatContacts({ contactName1: 'Jane Doe', contactPhone1: '555-0100' })).toBe('Primary: Jane Doe (555-0100)')
    expect(formatContacts({ contactName1: 'Jane Doe' })).toBe('Primary: Jane Doe')
  })

  it('treats blank strings as missing', () => {
    expect(formatContacts({ contactName1: 'Jane Doe', contactTitle1: '  ', contactEmail1: '', contactPhone1: ' ' })).toBe(
      'Primary: Jane Doe',
    )
  })

  it('keeps a contact who has an email but no name', () => {
    expect(formatContacts({ ...jane, contactEmail2: 'info@x.org' })).toBe(
      'Primary: Jane Doe, Executive Director (jane@x.org, 555-0100)\nSecondary: info@x.org',
    )
    expect(formatContacts({ contactEmail1: 'info@x.org', contactPhone1: '555-0100' })).toBe('Primary: info@x.org, 555-0100')
  })

  it('omits a secondary contact with nothing filled in', () => {
    expect(formatContacts({ ...jane, contactName2: '', contactEmail2: undefined })).toBe(
      'Primary: Jane Doe, Executive Director (jane@x.org, 555-0100)',
    )
  })

  it('answers empty when no contact information is given', () => {
    expect(formatContacts({})).toBe('empty')
    expect(formatContacts({ contactName1: ' ', contactEmail2: '' })).toBe('empty')
  })
})

describe('hasContacts', () => {
  it('is false for empty in any case and for blank text', () => {
    for (const text of ['empty', 'EMPTY', ' Empty \n', '', '   ']) expect(hasContacts(text)).toBe(false)
  })

  it('is true for formatted contacts', () => {
    expect(hasContacts(formatContacts(jane))).toBe(true)
    expect(hasContacts('Primary: Emptyville Trust (a@b.org)')).toBe(true)
  })
})
