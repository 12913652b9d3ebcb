import {
  AlignmentType,
  BorderStyle,
  Document,
  ExternalHyperlink,
  Footer,
  HeadingLevel,
  Packer,
  PageNumber,
  Paragraph,
  TextRun,
  type IRunOptions,
} from 'docx'
import { cleanText } from '~/shared/text'
import { isTone, TONE_DETAILS, type Tone } from '~/shared/tones'

// The Word download (SPEC.md section 9, DESIGN.md decision 12). User text only ever
// becomes TextRun text, which docx escapes: nothing the user types is read as markup.

export const DEFAULT_TITLE = 'Organization Impact Narrative'
export const DEFAULT_FILE_NAME = 'organizational-narrative.docx'
export const DEFAULT_LINK = 'https://github.com/impact-narrative-studio'
export const PRODUCT_CREDIT = 'Created with Impact Narrative Studio'

const FONT = 'Arial'
const PRIMARY = 'C2410C' // deep orange: 5.2:1 on white, readable as heading text
const ACCENT = 'F97316' // bright orange: rules only, too light for text
const SECONDARY = '4B5563' // grey: 7.5:1 on white
const LINE_SPACING = { line: 276, after: 160 } // 1.15 lines (240 = single)
const BODY_SIZE = 22 // half-points: 11pt
const FOOTER_SIZE = 18
const HEADING_SIZES = [28, 24, 20] as const // half-points, heading levels 1-3
const FILE_NAME_MAX = 150

// US Letter, 1-inch margins: the product's audience and dates are US (en-US dates).
const PAGE = {
  size: { width: 12240, height: 15840 },
  margin: { top: 1440, right: 1440, bottom: 1440, left: 1440, header: 720, footer: 720 },
}

export type NarrativeSections = {
  missionStatement?: string
  targetPopulation?: string
  geographicFocus?: string
  keyActivities?: string
  keyAchievements?: string
}

export type NarrativeDocxOptions = {
  narrative?: string
  title?: string
  company?: string
  contacts?: string
  website?: string
  tone?: Tone
  sections?: NarrativeSections
  link?: string
}

const SECTION_HEADINGS: [keyof NarrativeSections, string][] = [
  ['missionStatement', 'Mission Statement'],
  ['targetPopulation', 'Target Population'],
  ['geographicFocus', 'Geographic Focus'],
  ['keyActivities', 'Key Activities'],
  ['keyAchievements', 'Key Achievements'],
]

export function narrativeTitle(company: string | undefined, date: Date, timeZone = 'UTC'): string {
  const name = cleanText(company ?? '')
  if (!name) return DEFAULT_TITLE
  return `${name} Impact Narrative - ${formatLocalDate(date, timeZone)}`
}

function formatLocalDate(date: Date, timeZone: string): string {
  try {
    return date.toLocaleDateString('en-US', { timeZone })
  } catch {
    // An unknown IANA zone throws RangeError.
    return date.toLocaleDateString('en-US', { timeZone: 'UTC' })
  }
}

// Title with every character outside [A-Za-z0-9] replaced by '-': ASCII-only, so the
// name is safe on every file system and in a plain Content-Disposition filename.
export function narrativeFileName(title: string | undefined): string {
  const base = cleanText(title ?? '')
    .replace(/[^a-z0-9]/gi, '-')
    .slice(0, FILE_NAME_MAX)
  if (!base) return DEFAULT_FILE_NAME
  // Windows device names stay reserved even with an extension (CON.docx).
  const safe = /^(con|prn|aux|nul|com\d|lpt\d)$/i.test(base) ? `${base}-` : base
  return `${safe}.docx`
}

export async function buildNarrativeDocx(options: NarrativeDocxOptions): Promise<Buffer> {
  const title = plainText(options.title ?? '') || DEFAULT_TITLE
  const tone = isTone(options.tone) ? options.tone : 'professional'
  const document = new Document({
    title,
    creator: 'Impact Narrative Studio',
    lastModifiedBy: 'Impact Narrative Studio',
    subject: plainText(options.company ?? '') || undefined,
    styles: STYLES,
    sections: [
      {
        properties: { page: PAGE },
        footers: { default: buildFooter(TONE_DETAILS[tone].label, safeLink(options.link)) },
        children: [titleParagraph(title), ...bodyParagraphs(options), ...contactParagraphs(options)],
      },
    ],
  })
  return Packer.toBuffer(document)
}

function bodyParagraphs({ narrative, sections }: NarrativeDocxOptions): Paragraph[] {
  if (plainText(narrative ?? '')) return textParagraphs(narrative ?? '')
  return SECTION_HEADINGS.flatMap(([key, heading]) => {
    const text = sections?.[key] ?? ''
    return plainText(text) ? [headingParagraph(heading), ...textParagraphs(text)] : []
  })
}

function contactParagraphs({ contacts, website }: NarrativeDocxOptions): Paragraph[] {
  const paragraphs: Paragraph[] = []
  const contactText = plainText(contacts ?? '')
  if (contactText && contactText.toLowerCase() !== 'empty') {
    const lines = contactText.split('\n').map((line) => line.trim()).filter(Boolean)
    paragraphs.push(headingParagraph('Contact Information'), ...lines.map(bodyParagraph))
  }
  const site = plainText(website ?? '')
  if (site) paragraphs.push(headingParagraph('Website'), bodyParagraph(site))
  return paragraphs
}

// Paragraphs at blank lines; a single newline inside one is kept as a line break.
function textParagraphs(text: string): Paragraph[] {
  return plainText(text)
    .split(/\n[ \t]*\n\s*/)
    .map((block) => {
      const runs = block.split('\n').map((line, index) => run({ text: line.trim(), break: index > 0 ? 1 : undefined }))
      return new Paragraph({ spacing: LINE_SPACING, children: runs })
    })
}

function bodyParagraph(text: string): Paragraph {
  return new Paragraph({ spacing: LINE_SPACING, children: [run({ text })] })
}

function titleParagraph(title: string): Paragraph {
  return new Paragraph({
    heading: HeadingLevel.HEADING_1,
    alignment: AlignmentType.CENTER,
    spacing: { ...LINE_SPACING, after: 240 },
    border: { bottom: { style: BorderStyle.SINGLE, size: 12, color: ACCENT, space: 6 } },
    children: [run({ text: title, bold: true, size: HEADING_SIZES[0], color: PRIMARY })],
  })
}

function headingParagraph(text: string): Paragraph {
  return new Paragraph({
    heading: HeadingLevel.HEADING_2,
    spacing: { ...LINE_SPACING, before: 240, after: 120 },
    keepNext: true,
    children: [run({ text, bold: true, size: HEADING_SIZES[1], color: PRIMARY })],
  })
}

function buildFooter(toneLabel: string, link: string): Footer {
  const small = (text: string) => run({ text, size: FOOTER_SIZE, color: SECONDARY })
  const linkRun = new ExternalHyperlink({
    link,
    children: [run({ text: link, size: FOOTER_SIZE, color: PRIMARY, underline: {} })],
  })
  const border = { top: { style: BorderStyle.SINGLE, size: 6, color: ACCENT, space: 4 } }
  const centred = { alignment: AlignmentType.CENTER, spacing: { line: 276 } }
  return new Footer({
    children: [
      new Paragraph({ ...centred, border, children: [small(`${PRODUCT_CREDIT} · `), linkRun] }),
      new Paragraph({
        ...centred,
        children: [
          small(`Tone: ${toneLabel} · Page `),
          run({ children: [PageNumber.CURRENT], size: FOOTER_SIZE, color: SECONDARY }),
          small(' of '),
          run({ children: [PageNumber.TOTAL_PAGES], size: FOOTER_SIZE, color: SECONDARY }),
        ],
      }),
    ],
  })
}

// Arial set on every run as well as in the styles, so viewers that ignore style
// defaults still render it.
function run(options: IRunOptions): TextRun {
  return new TextRun({ font: FONT, size: BODY_SIZE, ...options })
}

// Only http(s) links go in the footer; anything else falls back to the default.
function safeLink(link: string | undefined): string {
  if (!link) return DEFAULT_LINK
  try {
    const url = new URL(link)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : DEFAULT_LINK
  } catch {
    return DEFAULT_LINK
  }
}

// Characters XML 1.0 cannot carry (they would corrupt the file), then the app's hygiene
// (NUL, bidi overrides, NFC, trim). Newlines are normalised to \n.
const XML_INVALID = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

function plainText(value: string): string {
  return cleanText(value.replace(XML_INVALID, '').replace(/\r\n?/g, '\n'))
}

const headingStyle = (size: number) => ({
  run: { font: FONT, size, bold: true, color: PRIMARY },
  paragraph: { spacing: { ...LINE_SPACING, before: 240, after: 120 }, keepNext: true },
})

// Built once: the same style sheet serves every document.
const STYLES = {
  default: {
    document: {
      run: { font: FONT, size: BODY_SIZE },
      paragraph: { spacing: LINE_SPACING },
    },
    heading1: headingStyle(HEADING_SIZES[0]),
    heading2: headingStyle(HEADING_SIZES[1]),
    heading3: headingStyle(HEADING_SIZES[2]),
    hyperlink: { run: { color: PRIMARY, underline: {} } },
  },
}
