import {
  AlignmentType,
  BorderStyle,
  Document,
  ExternalHyperlink,
  NoBreakHyphen,
  Footer,
  HeadingLevel,
  Packer,
  PageNumber,
  Paragraph,
  TextRun,
  type IRunOptions,
} from 'docx'
import { firstDraftBy } from '~/shared/disclosure'
import { cleanText } from '~/shared/text'
import { formatLongDate, spell, varietyOf, type DateFormat, type Variety } from '~/shared/locale'
import type { DocumentLocale, Paper } from '~/server/narratives/document-locale.server'

// The Word download (docs/spec.md#word-and-pdf-downloads). User text only ever becomes TextRun text, which docx escapes.

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

// The reader's paper (document-locale.server.ts), with 1-inch (2.54 cm) margins, in twips.
const PAPER_SIZES: Record<Paper, { width: number; height: number }> = {
  letter: { width: 12240, height: 15840 },
  a4: { width: 11906, height: 16838 },
}
const MARGIN = { top: 1440, right: 1440, bottom: 1440, left: 1440, header: 720, footer: 720 }
const DEFAULT_DOCUMENT_LOCALE: DocumentLocale = { locale: 'en-US', paper: 'letter' }

export type NarrativeSections = {
  missionStatement?: string
  targetPopulation?: string
  geographicFocus?: string
  keyActivities?: string
  keyAchievements?: string
  successStory?: string
}

export type NarrativeDocxOptions = {
  narrative?: string
  title?: DocumentTitle
  company?: string
  contacts?: string
  website?: string
  sections?: NarrativeSections
  /** The product's credit and link in the footer: off unless the operator turns it on (DOCUMENT_CREDIT). */
  credit?: boolean
  link?: string
  documentLocale?: DocumentLocale
  /** What wrote the text's first draft, named in the file's properties (a funder may ask how AI was used). */
  engine?: string
  /** The whole application (docs/decisions/054): the call's questions in order, then the narrative; the statement last. */
  application?: { answers: { question: string; answer: string; count: string }[]; statement?: string }
}

/** A part of the file's body: a heading, its text, and a line beneath in grey (an answer's count). */
export type BodySection = { heading?: string; text: string; note?: string }

const NOT_ANSWERED = 'Not answered yet.'
export const STATEMENT_HEADING = 'How this text was made'

/** The body's parts, the same for Word and PDF: the application's answers and narrative, the text alone, or, with none, the inputs. */
export function bodySections({ narrative = '', sections, application }: NarrativeDocxOptions): BodySection[] {
  if (application)
    return [
      ...application.answers.map(({ question, answer, count }, index) => ({
        heading: `Question ${index + 1}: ${question}`,
        text: plainText(answer) ? answer : NOT_ANSWERED,
        note: count,
      })),
      { heading: 'Narrative', text: narrative },
    ]
  if (plainText(narrative)) return [{ text: narrative }]
  return SECTION_HEADINGS.flatMap(([key, heading]) => (plainText(sections?.[key] ?? '') ? [{ heading, text: sections?.[key] ?? '' }] : []))
}

/** The title line, and the date printed on its own line beneath it. */
export type DocumentTitle = { title: string; date?: string }

export const SECTION_HEADINGS: [keyof NarrativeSections, string][] = [
  ['missionStatement', 'Mission Statement'],
  ['targetPopulation', 'Target Population'],
  ['geographicFocus', 'Geographic Focus'],
  ['keyActivities', 'Key Activities'],
  ['keyAchievements', 'Key Achievements'],
  ['successStory', 'Success Story'],
]

type TitleWriting = { locale?: string; variety?: Variety; dateFormat?: DateFormat | null; timeZone?: string }

/** '{company} Impact Narrative - {local date}', the date as the reader writes dates (docs/decisions/043). */
export function narrativeTitle(
  company: string | undefined,
  date: Date,
  { locale = 'en-US', variety = varietyOf(locale), dateFormat = null, timeZone = 'UTC' }: TitleWriting = {},
): DocumentTitle {
  const name = cleanText(company ?? '')
  if (!name) return { title: spell(DEFAULT_TITLE, variety) }
  return { title: `${name} Impact Narrative`, date: formatLongDate(date, timeZone || 'UTC', { locale, dateFormat }) }
}

/** The title as one line: the file's name and its document properties. */
export function fullTitle({ title, date }: DocumentTitle): string {
  return date ? `${title} - ${date}` : title
}

// Every run outside [A-Za-z0-9] becomes one '-': safe on every file system and in a plain Content-Disposition filename.
export function narrativeFileName(title: string | undefined, extension: 'docx' | 'pdf' = 'docx'): string {
  const base = cleanText(title ?? '')
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .slice(0, FILE_NAME_MAX)
    .replace(/-$/, '')
  if (!base) return DEFAULT_FILE_NAME.replace(/docx$/, extension)
  // Windows device names stay reserved even with an extension (CON.docx).
  const safe = /^(con|prn|aux|nul|com\d|lpt\d)$/i.test(base) ? `${base}-` : base
  return `${safe}.${extension}`
}

/** The files' line in their properties on how the text was made. */
export const madeBy = (engine: string) => `First draft by ${firstDraftBy(engine)}; kept in Impact Narrative Studio.`

export async function buildNarrativeDocx(options: NarrativeDocxOptions): Promise<Buffer> {
  const title = plainText(options.title?.title ?? '') || DEFAULT_TITLE
  const date = plainText(options.title?.date ?? '')
  const { paper } = options.documentLocale ?? DEFAULT_DOCUMENT_LOCALE
  const document = new Document({
    title: fullTitle({ title, date }),
    creator: 'Impact Narrative Studio',
    lastModifiedBy: 'Impact Narrative Studio',
    subject: plainText(options.company ?? '') || undefined,
    description: options.engine ? madeBy(options.engine) : undefined,
    styles: STYLES,
    sections: [
      {
        properties: { page: { size: PAPER_SIZES[paper], margin: MARGIN } },
        footers: { default: buildFooter(options.credit ? publicLink(options.link) : null) },
        children: [
          ...titleParagraphs(title, date),
          ...bodySections(options).flatMap(sectionParagraphs),
          ...contactParagraphs(options),
          ...(options.application?.statement ? sectionParagraphs({ heading: STATEMENT_HEADING, text: options.application.statement }) : []),
        ],
      },
    ],
  })
  return Packer.toBuffer(document)
}

function sectionParagraphs({ heading, text, note }: BodySection): Paragraph[] {
  const noted = note ? [new Paragraph({ spacing: LINE_SPACING, children: [run({ text: note, color: SECONDARY, size: FOOTER_SIZE })] })] : []
  return [...(heading ? [headingParagraph(heading)] : []), ...textParagraphs(text), ...noted]
}

function contactParagraphs({ contacts, website }: NarrativeDocxOptions): Paragraph[] {
  const paragraphs: Paragraph[] = []
  const contactText = plainText(contacts ?? '')
  if (contactText && contactText.toLowerCase() !== 'empty') {
    const lines = contactText
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
    paragraphs.push(headingParagraph('Contact Information'), ...lines.map(bodyParagraph))
  }
  const site = plainText(website ?? '')
  if (site) paragraphs.push(headingParagraph('Website'), bodyParagraph(site))
  return paragraphs
}

/** Paragraphs, and lines in all of them, a file keeps (Word's build grows faster than their count); the rest joins the last one. */
const PARAGRAPHS_MAX = 300
const LINES_MAX = 600

// Paragraphs at blank lines; a single newline inside one is kept as a line break.
function textParagraphs(text: string): Paragraph[] {
  let linesLeft = LINES_MAX
  return capped(plainText(text).split(/\n[ \t]*\n\s*/), PARAGRAPHS_MAX, '\n').map((block) => {
    const lines = capped(block.split('\n'), Math.max(1, linesLeft), ' ')
    linesLeft -= lines.length
    const runs = lines.map((line, index) => run({ text: line.trim(), break: index > 0 ? 1 : undefined }))
    return new Paragraph({ spacing: LINE_SPACING, children: runs })
  })
}

function capped(parts: string[], max: number, joiner: string): string[] {
  return parts.length <= max ? parts : [...parts.slice(0, max - 1), parts.slice(max - 1).join(joiner)]
}

function bodyParagraph(text: string): Paragraph {
  return new Paragraph({ spacing: LINE_SPACING, children: [run({ text })] })
}

function titleParagraphs(title: string, date: string): Paragraph[] {
  const rule = { bottom: { style: BorderStyle.SINGLE, size: 12, color: ACCENT, space: 6 } }
  const heading = new Paragraph({
    heading: HeadingLevel.HEADING_1,
    alignment: AlignmentType.CENTER,
    spacing: { ...LINE_SPACING, after: date ? 60 : 240 },
    border: date ? undefined : rule,
    children: [run({ text: title, bold: true, size: HEADING_SIZES[0], color: PRIMARY })],
  })
  if (!date) return [heading]
  const dateLine = new Paragraph({
    alignment: AlignmentType.CENTER,
    spacing: { ...LINE_SPACING, after: 240 },
    border: rule,
    children: [run({ text: date, color: SECONDARY })],
  })
  return [heading, dateLine]
}

function headingParagraph(text: string): Paragraph {
  return new Paragraph({
    heading: HeadingLevel.HEADING_2,
    spacing: { ...LINE_SPACING, before: 240, after: 120 },
    keepNext: true,
    children: [run({ text, bold: true, size: HEADING_SIZES[1], color: PRIMARY })],
  })
}

/** "Page X of Y"; with the operator's credit on, the product's name and link above it. */
function buildFooter(link: string | null): Footer {
  const small = (text: string) => run({ text, size: FOOTER_SIZE, color: SECONDARY })
  const border = { top: { style: BorderStyle.SINGLE, size: 6, color: ACCENT, space: 4 } }
  const centred = { alignment: AlignmentType.CENTER, spacing: { line: 276 } }
  const credit = link
    ? [
        new Paragraph({
          ...centred,
          border,
          children: [
            small(`${PRODUCT_CREDIT} · `),
            new ExternalHyperlink({ link, children: [run({ text: link, size: FOOTER_SIZE, color: PRIMARY, underline: {} })] }),
          ],
        }),
      ]
    : []
  return new Footer({
    children: [
      ...credit,
      new Paragraph({
        ...centred,
        border: link ? undefined : border,
        children: [
          small('Page '),
          run({ children: [PageNumber.CURRENT], size: FOOTER_SIZE, color: SECONDARY }),
          small(' of '),
          run({ children: [PageNumber.TOTAL_PAGES], size: FOOTER_SIZE, color: SECONDARY }),
        ],
      }),
    ],
  })
}

// Arial on every run as well as in the styles, for viewers that ignore style defaults.
function run({ text, ...options }: IRunOptions): TextRun {
  return new TextRun({ font: FONT, size: BODY_SIZE, ...options, ...(text === undefined ? {} : { children: unbrokenHyphens(text) }) })
}

// A phone number or a range (512-555-0142, 2019-2023) never breaks across lines at its hyphens.
function unbrokenHyphens(text: string): Array<string | NoBreakHyphen> {
  return text.split(/(?<=\d)-(?=\d)/).flatMap((part, index) => (index === 0 ? [part] : [new NoBreakHyphen(), part]))
}

// The footer links to the instance only where a funder could open it (an https origin on a public name); else the product's.
const PRIVATE_HOST = /^(localhost|[^.]+|.+\.(localhost|local|internal|lan|home\.arpa)|\[.*\]|[\d.]+)$/i

export function publicLink(link: string | undefined): string {
  try {
    const url = new URL(link ?? '')
    return url.protocol === 'https:' && !PRIVATE_HOST.test(url.hostname) ? url.href : DEFAULT_LINK
  } catch {
    return DEFAULT_LINK
  }
}

// Characters XML 1.0 cannot carry (they would corrupt the file), then the app's hygiene; newlines normalised to \n.
const XML_INVALID = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

function plainText(value: string): string {
  return cleanText(value.replace(XML_INVALID, '').replace(/\r\n?/g, '\n'))
}

const headingStyle = (size: number) => ({
  run: { font: FONT, size, bold: true, color: PRIMARY },
  paragraph: { spacing: { ...LINE_SPACING, before: 240, after: 120 }, keepNext: true },
})

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
