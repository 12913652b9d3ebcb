import {
  buildNarrativeDocx,
  fullTitle,
  narrativeFileName,
  narrativeTitle,
  publicLink,
  type NarrativeDocxOptions,
} from '~/server/narratives/docx.server'
import { paperOf } from '~/server/narratives/document-locale.server'
import { DRAFTER_ENGINE } from '~/shared/engines'
import { unzip } from '../setup/unzip'

type Parts = { document: string; styles: string; footer: string; footerRels: string; files: Map<string, string> }

async function build(options: NarrativeDocxOptions = {}): Promise<Parts> {
  const files = unzip(await buildNarrativeDocx(options))
  const footerName = [...files.keys()].find((name) => /^word\/footer\d*\.xml$/.test(name))
  if (!footerName) throw new Error('no footer part')
  const footerRels = files.get(footerName.replace('word/', 'word/_rels/') + '.rels') ?? ''
  const part = (name: string) => files.get(name) ?? ''
  return { document: part('word/document.xml'), styles: part('word/styles.xml'), footer: part(footerName), footerRels, files }
}

function decode(xml: string): string {
  return xml
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
}

const paragraphXml = (xml: string) => xml.match(/<w:p>[\s\S]*?<\/w:p>/g) ?? []
// A non-breaking hyphen is an element of its own; it reads as '-'.
const textOf = (paragraph: string) =>
  decode(
    [...paragraph.replace(/<w:noBreakHyphen\/>/g, '<w:t>-</w:t>').matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)]
      .map((match) => match[1])
      .join(''),
  )
const paragraphTexts = (xml: string) => paragraphXml(xml).map(textOf)
const headingTexts = (xml: string, level: number) =>
  paragraphXml(xml)
    .filter((p) => p.includes(`<w:pStyle w:val="Heading${level}"/>`))
    .map(textOf)
const styleXml = (styles: string, id: string) => styles.match(new RegExp(`<w:style [^>]*w:styleId="${id}"[\\s\\S]*?</w:style>`))?.[0] ?? ''

const DEFAULT_LINK = 'https://github.com/impact-narrative-studio'

describe('narrativeTitle', () => {
  const date = new Date('2026-11-22T12:00:00Z')
  const full = (...args: Parameters<typeof narrativeTitle>) => fullTitle(narrativeTitle(...args))

  test('is "{company} Impact Narrative - {date}", the date written out in en-US and UTC by default', () => {
    expect(narrativeTitle('  Acme  ', date)).toEqual({ title: 'Acme Impact Narrative', date: 'November 22, 2026' })
    expect(full('Acme', date)).toBe('Acme Impact Narrative - November 22, 2026')
  })

  test("writes the date as the reader's language does", () => {
    expect(narrativeTitle('Acme', date, { locale: 'en-GB' }).date).toBe('22 November 2026')
    expect(narrativeTitle('Acme', date, { locale: 'en-KE' }).date).toBe('22 November 2026')
    expect(narrativeTitle('Acme', date, { locale: 'de-DE' }).date).toBe('22. November 2026')
  })

  test('falls back to the organisation title without a company', () => {
    expect(narrativeTitle(undefined, date)).toEqual({ title: 'Organization Impact Narrative' })
    expect(full('   ', date)).toBe('Organization Impact Narrative')
  })

  test('uses the local date of the given time zone', () => {
    const lateUtc = new Date('2026-11-22T03:00:00Z')
    expect(narrativeTitle('Acme', lateUtc, { timeZone: 'America/Los_Angeles' }).date).toBe('November 21, 2026')
    expect(narrativeTitle('Acme', lateUtc, { timeZone: 'Asia/Tokyo' }).date).toBe('November 22, 2026')
    expect(narrativeTitle('Acme', new Date('2026-11-22T20:00:00Z'), { timeZone: 'Pacific/Auckland' }).date).toBe('November 23, 2026')
  })

  test('an unknown time zone falls back to UTC', () => {
    const lateUtc = new Date('2026-11-22T03:00:00Z')
    expect(narrativeTitle('Acme', lateUtc, { timeZone: 'Not/A_Zone' }).date).toBe('November 22, 2026')
    expect(narrativeTitle('Acme', lateUtc, { timeZone: '' }).date).toBe('November 22, 2026')
  })
})

describe('paperOf', () => {
  test('US Letter where it is the paper in use, A4 everywhere else', () => {
    expect(['en-US', 'en', 'en-CA', 'es-MX', 'fil-PH'].map(paperOf)).toEqual(['letter', 'letter', 'letter', 'letter', 'letter'])
    expect(['en-GB', 'en-KE', 'sw', 'fr', 'de-DE', 'en-IN', 'es'].map(paperOf)).toEqual(['a4', 'a4', 'a4', 'a4', 'a4', 'a4', 'a4'])
  })
})

describe('narrativeFileName', () => {
  const byRule = (title: string) => title.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') + '.docx'

  test('turns every run of non-alphanumeric characters into one hyphen and adds .docx or .pdf', () => {
    const title = 'Acme & Co. Impact Narrative - 11/22/2026'
    expect(narrativeFileName(title)).toBe('Acme-Co-Impact-Narrative-11-22-2026.docx')
    expect(narrativeFileName(title, 'pdf')).toBe('Acme-Co-Impact-Narrative-11-22-2026.pdf')
    expect(narrativeFileName(title)).toBe(byRule(title))
    expect(narrativeFileName('Organization Impact Narrative')).toBe('Organization-Impact-Narrative.docx')
    expect(narrativeFileName('Café "Ünïcode" 🚀')).toBe(byRule('Café "Ünïcode" 🚀'))
  })

  test('defaults to organizational-narrative.docx without a title', () => {
    expect(narrativeFileName(undefined)).toBe('organizational-narrative.docx')
    expect(narrativeFileName('')).toBe('organizational-narrative.docx')
    expect(narrativeFileName(' \u0000\u202E ')).toBe('organizational-narrative.docx')
  })

  test('is always a safe file name', () => {
    const name = narrativeFileName('..\\..\u0000/etc/passwd\u202Egnp.exe\r\n')
    expect(name).toBe('etc-passwdgnp-exe.docx')
    expect(name).toMatch(/^[A-Za-z0-9-]+\.docx$/)
    const long = narrativeFileName('A'.repeat(1000))
    expect(long).toBe('A'.repeat(150) + '.docx')
    expect(narrativeFileName('CON').toLowerCase()).not.toBe('con.docx')
  })
})

describe('buildNarrativeDocx', () => {
  it('names what wrote the first draft in its properties, a model as generative AI and the drafter as none', async () => {
    const description = async (engine: string) =>
      decode(
        /<dc:description>([^<]*)<\/dc:description>/.exec(
          (await build({ narrative: 'N', engine })).files.get('docProps/core.xml') ?? '',
        )?.[1] ?? '',
      )
    expect(await description('gpt-4o-mini')).toBe(
      'First draft by the language model gpt-4o-mini (generative AI), from the organisation’s own inputs; kept in Impact Narrative Studio.',
    )
    expect(await description(DRAFTER_ENGINE)).toBe(
      'First draft by the offline drafter, from the organisation’s own words, with no language model; kept in Impact Narrative Studio.',
    )
  })

  test('returns a zip with the Word parts', async () => {
    const buffer = await buildNarrativeDocx({ narrative: 'Hello.' })
    expect(Buffer.isBuffer(buffer)).toBe(true)
    expect(buffer.subarray(0, 2).toString()).toBe('PK')
    const files = unzip(buffer)
    expect(files.has('word/document.xml')).toBe(true)
    expect(files.has('word/styles.xml')).toBe(true)
  })

  test('puts the title first, centred, as heading 1 in primary orange at size 28', async () => {
    const { document, files } = await build({ title: { title: 'Acme Impact Narrative', date: '22 November 2026' }, narrative: 'Body.' })
    const [first = '', second = ''] = paragraphXml(document)
    expect(textOf(first)).toBe('Acme Impact Narrative')
    // The date on a line of its own, so the title does not wrap; the document's title has both.
    expect(textOf(second)).toBe('22 November 2026')
    expect(second).toContain('<w:jc w:val="center"/>')
    expect(files.get('docProps/core.xml')).toContain('<dc:title>Acme Impact Narrative - 22 November 2026</dc:title>')
    expect(first).toContain('<w:jc w:val="center"/>')
    expect(first).toContain('<w:pStyle w:val="Heading1"/>')
    expect(first).toContain('<w:sz w:val="28"/>')
    expect(first).toContain('<w:color w:val="C2410C"/>')
  })

  test('uses the default title', async () => {
    const { document } = await build({ narrative: 'Body.' })
    expect(headingTexts(document, 1)).toEqual(['Organization Impact Narrative'])
  })

  test('makes each blank-line-separated block its own paragraph', async () => {
    const narrative = 'First paragraph.\n\nSecond paragraph.\r\n\r\nThird\nwith a break.\n \n\n\nFourth.'
    const { document } = await build({ title: { title: 'T' }, narrative })
    expect(paragraphTexts(document)).toEqual(['T', 'First paragraph.', 'Second paragraph.', 'Thirdwith a break.', 'Fourth.'])
    const third = paragraphXml(document)[3]
    expect(third.match(/<w:br\/>/g)).toHaveLength(1)
  })

  test('sets Arial and 1.15 line spacing everywhere', async () => {
    const { document, styles, footer } = await build({ narrative: 'One.\n\nTwo.', contacts: 'Primary: Jane', website: 'acme.org' })
    for (const xml of [document, footer]) {
      const runs = xml.match(/<w:r>[\s\S]*?<\/w:r>/g) ?? []
      expect(runs.length).toBeGreaterThan(0)
      for (const run of runs) expect(run).toContain('<w:rFonts w:ascii="Arial"')
      for (const paragraph of paragraphXml(xml)) expect(paragraph).toMatch(/<w:spacing [^>]*w:line="276"/)
    }
    const defaults = styles.match(/<w:docDefaults>[\s\S]*<\/w:docDefaults>/)?.[0] ?? ''
    expect(defaults).toContain('w:ascii="Arial"')
    expect(defaults).toContain('w:line="276"')
  })

  test('defines three heading levels at 28, 24 and 20 half-points', async () => {
    const { styles, document } = await build({ sections: { missionStatement: 'Mission.' } })
    expect(styleXml(styles, 'Heading1')).toContain('<w:sz w:val="28"/>')
    expect(styleXml(styles, 'Heading2')).toContain('<w:sz w:val="24"/>')
    expect(styleXml(styles, 'Heading3')).toContain('<w:sz w:val="20"/>')
    const heading = paragraphXml(document).find((p) => textOf(p) === 'Mission Statement') ?? ''
    expect(heading).toContain('<w:pStyle w:val="Heading2"/>')
    expect(heading).toContain('<w:sz w:val="24"/>')
  })

  test('writes only Page X of Y in the footer: no product advertisement, no tone', async () => {
    const { footer } = await build({ narrative: 'Body.' })
    const text = decode(footer.replace(/<[^>]+>/g, ''))
    expect(text).toBe('Page PAGE of NUMPAGES')
    expect(footer).not.toContain('<w:hyperlink')
  })

  test('writes the credit and its link above Page X of Y when the operator turns it on', async () => {
    const { footer, footerRels } = await build({ narrative: 'Body.', credit: true })
    const text = decode(footer.replace(/<[^>]+>/g, ''))
    expect(text).toContain('Created with Impact Narrative Studio')
    expect(text).toMatch(/Page PAGE of NUMPAGES$/)
    expect(footer).toMatch(/<w:instrText[^>]*>PAGE<\/w:instrText>/)
    expect(footer).toMatch(/<w:instrText[^>]*>NUMPAGES<\/w:instrText>/)
    const linkId = footer.match(/<w:hyperlink [^>]*r:id="([^"]+)"/)?.[1]
    expect(linkId).toBeTruthy()
    expect(footerRels).toContain(`Id="${linkId}"`)
    expect(footerRels).toMatch(new RegExp(`Id="${linkId}"[^>]*Target="${DEFAULT_LINK}"[^>]*TargetMode="External"`))
  })

  test('takes the footer link from the link option, https only', async () => {
    const custom = await build({ narrative: 'Body.', credit: true, link: 'https://example.org/studio' })
    expect(custom.footerRels).toContain('Target="https://example.org/studio"')
    const unsafe = await build({ narrative: 'Body.', credit: true, link: 'javascript:alert(1)' })
    expect(unsafe.footerRels).toContain(`Target="${DEFAULT_LINK}"`)
    expect(unsafe.footerRels).not.toContain('javascript')
  })

  test('never prints a link a funder could not open: localhost, a LAN name or a bare address', () => {
    for (const origin of [
      'http://localhost:3000',
      'https://localhost',
      'https://studio.localhost',
      'https://nas.local',
      'https://studio.lan',
      'https://intranet',
      'https://192.168.1.20',
      'https://[::1]:3000',
      'http://narratives.example.org',
    ]) {
      expect(publicLink(origin), origin).toBe(DEFAULT_LINK)
    }
    expect(publicLink('https://narratives.example.org')).toBe('https://narratives.example.org/')
  })

  test('keeps phone numbers and ranges whole: their hyphens do not break', async () => {
    const { document } = await build({
      narrative: 'Call 512-555-0142 about 2019-2023 and a well-known e-mail.',
      contacts: 'Primary: Maria (512-555-0142)',
    })
    expect(document.match(/<w:noBreakHyphen\/>/g)).toHaveLength(5)
    expect(document).toContain('well-known e-mail')
  })

  test('builds the body from the form sections when there is no narrative', async () => {
    const sections = {
      missionStatement: 'We teach reading.',
      targetPopulation: '  ',
      geographicFocus: 'Ohio',
      keyActivities: 'Tutoring.\n\nBook clubs.',
      keyAchievements: '',
    }
    const { document } = await build({ narrative: '  \n\n ', sections })
    expect(headingTexts(document, 2)).toEqual(['Mission Statement', 'Geographic Focus', 'Key Activities'])
    expect(paragraphTexts(document)).toEqual([
      'Organization Impact Narrative',
      'Mission Statement',
      'We teach reading.',
      'Geographic Focus',
      'Ohio',
      'Key Activities',
      'Tutoring.',
      'Book clubs.',
    ])
  })

  test('ignores the sections when there is a narrative', async () => {
    const { document } = await build({ narrative: 'The story.', sections: { missionStatement: 'Mission.' } })
    expect(paragraphTexts(document)).toEqual(['Organization Impact Narrative', 'The story.'])
  })

  test('appends contacts, one line per paragraph, and the website when present', async () => {
    const contacts = 'Primary: Jane Doe, Director (jane@acme.org, 555-0100)\nSecondary: Bob Roe (bob@acme.org)'
    const { document } = await build({ narrative: 'Story.', contacts, website: 'https://acme.org' })
    expect(paragraphTexts(document)).toEqual([
      'Organization Impact Narrative',
      'Story.',
      'Contact Information',
      'Primary: Jane Doe, Director (jane@acme.org, 555-0100)',
      'Secondary: Bob Roe (bob@acme.org)',
      'Website',
      'https://acme.org',
    ])
    expect(headingTexts(document, 2)).toEqual(['Contact Information', 'Website'])
  })

  test('leaves contacts out when they are missing or "empty"', async () => {
    for (const contacts of [undefined, '', '  ', 'empty', 'EMPTY', ' Empty\n']) {
      const { document } = await build({ narrative: 'Story.', contacts })
      expect(paragraphTexts(document)).toEqual(['Organization Impact Narrative', 'Story.'])
    }
    const withSite = await build({ narrative: 'Story.', contacts: 'empty', website: 'acme.org' })
    expect(headingTexts(withSite.document, 2)).toEqual(['Website'])
  })

  test('writes user text as text, never as markup', async () => {
    const narrative = '<script>alert("x")</script> & <w:p>Sons</w:p>'
    const { document, files } = await build({
      title: { title: 'Acme & Co. <b>' },
      narrative,
      contacts: 'Jane <jane@acme.org>',
      website: 'a&b',
    })
    expect(document).not.toContain('<script>')
    expect(document).not.toContain('<w:p>Sons')
    expect(document).toContain('&lt;script&gt;')
    expect(document).toContain('Acme &amp; Co. &lt;b&gt;')
    expect(paragraphTexts(document)).toEqual(['Acme & Co. <b>', narrative, 'Contact Information', 'Jane <jane@acme.org>', 'Website', 'a&b'])
    expect(files.get('docProps/core.xml')).toContain('<dc:title>Acme &amp; Co. &lt;b&gt;</dc:title>')
  })

  test('drops characters XML cannot carry', async () => {
    const { document } = await build({ narrative: 'Bad\u0001\u0008\uFFFF\uD800 chars\u202E ok' })
    expect(paragraphTexts(document)[1]).toBe('Bad chars ok')
    expect(document).not.toMatch(/[\u0000-\u0008\uFFFE\uFFFF]/)
  })

  test('uses US Letter with 1-inch margins by default, and the paper it is given', async () => {
    const { document } = await build({ narrative: 'x' })
    expect(document).toMatch(/<w:pgSz w:w="12240" w:h="15840"/)
    expect(document).toMatch(/<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"/)
    const a4 = await build({ narrative: 'x', documentLocale: { locale: 'en-GB', paper: 'a4' } })
    expect(a4.document).toMatch(/<w:pgSz w:w="11906" w:h="16838"/)
  })
})
