import { setImmediate } from 'node:timers/promises'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import * as fontkit from 'fontkit'
import PDFDocument from 'pdfkit'
import { cleanText } from '~/shared/text'
import {
  DEFAULT_TITLE,
  PRODUCT_CREDIT,
  fullTitle,
  madeBy,
  publicLink,
  bodySections,
  STATEMENT_HEADING,
  type BodySection,
  type NarrativeDocxOptions,
} from '~/server/narratives/docx.server'

// The Word file's page in PDF (docs/decisions/033), with Arimo (Arial's measures) embedded: PDF readers have no Arial to lend.

const POINTS_PER_INCH = 72
const MARGIN = POINTS_PER_INCH
const PAPER = { letter: 'LETTER', a4: 'A4' } as const
const BODY_SIZE = 11
const TITLE_SIZE = 14
const HEADING_SIZE = 12
const FOOTER_SIZE = 9
/** 1.15 lines, as the Word file's spacing. */
const LINE_GAP = BODY_SIZE * 0.15
const PARAGRAPH_AFTER = 8
const PRIMARY = '#C2410C'
const ACCENT = '#F97316'
const SECONDARY = '#4B5563'
const TEXT = '#111827'

const require = createRequire(import.meta.url)
type Font = ReturnType<typeof fontkit.create>
let fonts: { regular: Font; bold: Font } | undefined

/** The fonts, read and parsed once (about 320 KB each) and shared by every document. */
function loadedFonts() {
  fonts ??= {
    regular: fontkit.create(fs.readFileSync(require.resolve('@expo-google-fonts/arimo/400Regular/Arimo_400Regular.ttf'))),
    bold: fontkit.create(fs.readFileSync(require.resolve('@expo-google-fonts/arimo/700Bold/Arimo_700Bold.ttf'))),
  }
  return fonts
}

/** Parses the fonts and sets one line as a worker starts, so the first PDF pays for neither (docs/decisions/033). */
export async function warmPdf() {
  await buildNarrativePdf({ narrative: 'Ready.' })
}

export async function buildNarrativePdf(options: NarrativeDocxOptions): Promise<Buffer> {
  const title = plain(options.title?.title ?? '') || DEFAULT_TITLE
  const date = plain(options.title?.date ?? '')
  const { paper, locale } = options.documentLocale ?? { paper: 'letter', locale: 'en-US' }
  const document = new PDFDocument({
    size: PAPER[paper],
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    lang: locale,
    displayTitle: true,
    bufferPages: true,
    info: {
      Title: fullTitle({ title, date }),
      ...(plain(options.company ?? '') ? { Subject: plain(options.company ?? '') } : {}),
      // The application that made it, as PDF readers show "Creator": what wrote the first draft too.
      Creator: options.engine ? madeBy(options.engine) : 'Impact Narrative Studio',
    },
  })
  const { regular, bold } = loadedFonts()
  // pdfkit takes a parsed font where its typings expect the file's bytes.
  document.registerFont('Body', regular as unknown as Buffer)
  document.registerFont('Bold', bold as unknown as Buffer)
  const done = collect(document)
  // Pages are kept until the text is set, so each footer can say "Page X of Y", and written out at the end (docs/decisions/033).
  const writer = new PageWriter(document, options.credit ? publicLink(options.link) : null)
  writer.title(title, date)
  for (const section of bodySections(options)) await writeSection(writer, section)
  await writeContacts(writer, options)
  if (options.application?.statement) await writeSection(writer, { heading: STATEMENT_HEADING, text: options.application.statement })
  await writer.footers()
  document.end()
  return done
}

function collect(document: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = []
  return new Promise((resolve, reject) => {
    document.on('data', (chunk: Buffer) => chunks.push(chunk))
    document.on('end', () => resolve(Buffer.concat(chunks)))
    document.on('error', reject)
  })
}

async function writeSection(writer: PageWriter, { heading, text, note }: BodySection) {
  if (heading) writer.heading(heading, plain(text))
  await writer.paragraphs(text)
  if (note) writer.note(note)
}

async function writeContacts(writer: PageWriter, { contacts, website }: NarrativeDocxOptions) {
  const contactText = plain(contacts ?? '')
  if (contactText && contactText.toLowerCase() !== 'empty') {
    const lines = contactText
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
    // Each contact is a paragraph of its own: the heading keeps the first two with it, as it would two lines of one.
    writer.heading('Contact Information', lines.slice(0, 2).join('\n'))
    for (const line of lines) await writer.body(line)
  }
  const site = plain(website ?? '')
  if (site) {
    writer.heading('Website', site)
    await writer.body(site)
  }
}

const LONG_RUN = /\S{31,}/g
const PARAGRAPH_BREAK = /\n[ \t]*\n\s*/
const PIECE_CHARS = 400
const PIECE_LINES = 20
/** How long one document may hold the event loop before it lets others have a turn. */
const TURN_MS = 8
/** The lines of its text a heading keeps on its page, as Word's "keep with next" and widow control do. */
const KEEP_LINES = 2

class PageWriter {
  private heldSince = performance.now()

  constructor(
    private document: PDFKit.PDFDocument,
    private link: string | null,
  ) {}

  title(title: string, date: string) {
    const width = this.width()
    this.setStyle('Bold', TITLE_SIZE, PRIMARY).text(title, { align: 'center', width, lineGap: LINE_GAP })
    if (date) this.setStyle('Body', BODY_SIZE, SECONDARY, 0.2).text(date, { align: 'center', width })
    const y = this.document.y + 6
    this.document
      .moveTo(MARGIN, y)
      .lineTo(MARGIN + width, y)
      .lineWidth(1.5)
      .strokeColor(ACCENT)
      .stroke()
    this.document.y = y + 12
  }

  /** A heading, kept with the first lines of `next` (else it begins the next page); at the top of a page, no space above it. */
  heading(text: string, next: string) {
    const document = this.document
    const width = this.width()
    const above = document.y > document.page.margins.top ? document.currentLineHeight(true) * 0.6 : 0
    this.setStyle('Bold', HEADING_SIZE, PRIMARY)
    const below = document.currentLineHeight(true) * 0.3
    const height = document.heightOfString(text, { width, lineGap: LINE_GAP })
    if (above && document.y + above + height + below + this.keptHeight(next) > document.page.maxY()) document.addPage()
    else document.y += above
    this.setStyle('Bold', HEADING_SIZE, PRIMARY).text(text, { width, lineGap: LINE_GAP })
    document.y += below
  }

  /** Paragraphs at blank lines; a single newline inside one is kept as a line break. */
  async paragraphs(text: string) {
    for (const block of plain(text).split(PARAGRAPH_BREAK)) await this.body(block)
  }

  /** Set a piece at a time, with a turn of the event loop every TURN_MS (docs/decisions/025). */
  async body(text: string) {
    const pieces = piecesOf(breakable(text))
    this.setStyle('Body', BODY_SIZE, TEXT)
    for (const [index, piece] of pieces.entries()) {
      const last = index === pieces.length - 1
      this.document.text(piece, { width: this.width(), lineGap: LINE_GAP, paragraphGap: last ? PARAGRAPH_AFTER : 0, continued: !last })
      await this.pause()
    }
  }

  /** A line in grey beneath a text: an answer's count. */
  note(text: string) {
    this.setStyle('Body', FOOTER_SIZE, SECONDARY).text(plain(text), {
      width: this.width(),
      lineGap: LINE_GAP,
      paragraphGap: PARAGRAPH_AFTER,
    })
  }

  /** "Page X of Y" at the foot of every page, once all the text is set; with the operator's credit on, it goes above. */
  async footers() {
    const document = this.document
    const { start, count } = document.bufferedPageRange()
    for (let index = start; index < start + count; index++) {
      document.switchToPage(index)
      // Writing inside the bottom margin would start a new page: the margin is lifted while the footer is drawn.
      const bottom = document.page.margins.bottom
      document.page.margins.bottom = 0
      const width = this.width()
      const top = document.page.height - MARGIN / 2 - (this.link ? FOOTER_SIZE * 2.6 : FOOTER_SIZE * 1.3)
      document.font('Body').fontSize(FOOTER_SIZE).fillColor(SECONDARY)
      // Centred by hand and set as one line, with no width: text with a width goes through the line breaker.
      const centred = (line: string, at: number) =>
        document.text(line, MARGIN + (width - document.widthOfString(line)) / 2, at, { lineBreak: false, width: 0, align: 'left' })
      if (this.link) centred(`${PRODUCT_CREDIT} · ${this.link}`, top)
      centred(`Page ${index - start + 1} of ${count}`, this.link ? top + FOOTER_SIZE * 1.3 : top)
      document.page.margins.bottom = bottom
      await this.pause()
    }
  }

  /** The height of the first KEEP_LINES lines of `text`: only its first piece is measured, so a long one costs no more. */
  private keptHeight(text: string) {
    const document = this.document
    const first = breakable(text.split(PARAGRAPH_BREAK, 1)[0].slice(0, PIECE_CHARS))
    if (!first) return 0
    document.font('Body').fontSize(BODY_SIZE)
    const line = document.currentLineHeight(true) + LINE_GAP
    const lines = Math.min(KEEP_LINES, Math.round(document.heightOfString(first, { width: this.width(), lineGap: LINE_GAP }) / line))
    return lines * line - LINE_GAP
  }

  private setStyle(font: string, size: number, color: string, gapBefore = 0) {
    if (gapBefore) this.document.moveDown(gapBefore)
    return this.document.font(font).fontSize(size).fillColor(color)
  }

  private async pause() {
    if (performance.now() - this.heldSince < TURN_MS) return
    await setImmediate()
    this.heldSince = performance.now()
  }

  private width() {
    return this.document.page.width - MARGIN * 2
  }
}

/** A place to break every 30 characters of a run with no space: the line breaker's own search costs the square of its length. */
function breakable(text: string): string {
  return text.replace(LONG_RUN, (run) => run.replace(/.{30}/gu, '$&\u200B'))
}

function piecesOf(text: string): string[] {
  const pieces: string[] = []
  let start = 0
  while (text.length - start > PIECE_CHARS || nthLineBreak(text, start, PIECE_LINES + 1) < text.length) {
    const limit = Math.min(start + PIECE_CHARS, nthLineBreak(text, start, PIECE_LINES))
    const end = Math.max(text.lastIndexOf(' ', limit), text.lastIndexOf('\n', limit), text.lastIndexOf('\u200B', limit))
    const cut = end >= start ? end + 1 : limit + 1
    pieces.push(text.slice(start, cut))
    start = cut
  }
  pieces.push(text.slice(start))
  return pieces
}

/** Where the `n`th line break from `from` is, or the text's length when it has fewer. */
function nthLineBreak(text: string, from: number, n: number): number {
  let at = from - 1
  for (let count = 0; count < n; count++) {
    at = text.indexOf('\n', at + 1)
    if (at === -1) return text.length
  }
  return at
}

/** The app's text hygiene, newlines normalised; no control character reaches the page. */
function plain(value: string): string {
  return cleanText(value.replace(/\r\n?/g, '\n'))
}
