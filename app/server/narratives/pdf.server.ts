import fs from 'node:fs'
import { createRequire } from 'node:module'
import * as fontkit from 'fontkit'
import PDFDocument from 'pdfkit'
import { cleanText } from '~/shared/text'
import {
  DEFAULT_TITLE,
  PRODUCT_CREDIT,
  fullTitle,
  publicLink,
  SECTION_HEADINGS,
  type NarrativeDocxOptions,
} from '~/server/narratives/docx.server'

// The PDF download (docs/spec.md#word-and-pdf-downloads, docs/decisions/032): the Word file's page set in
// PDF on the server with pdfkit, so it downloads without JavaScript. The same title, paper, margins,
// sizes and colours; the font is Arimo, drawn to Arial's measures, embedded from its npm package (PDF
// readers have no Arial of their own to lend, and nothing is downloaded at install or at run time).

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

/**
 * The fonts, read and parsed once (about 320 KB each) and shared by every document: parsing them for
 * each download cost about 100 ms of the event loop.
 */
function loadedFonts() {
  fonts ??= {
    regular: fontkit.create(fs.readFileSync(require.resolve('@expo-google-fonts/arimo/400Regular/Arimo_400Regular.ttf'))),
    bold: fontkit.create(fs.readFileSync(require.resolve('@expo-google-fonts/arimo/700Bold/Arimo_700Bold.ttf'))),
  }
  return fonts
}

export async function buildNarrativePdf(options: NarrativeDocxOptions): Promise<Buffer> {
  const title = plain(options.title?.title ?? '') || DEFAULT_TITLE
  const date = plain(options.title?.date ?? '')
  const { paper, locale } = options.documentLocale ?? { paper: 'letter', locale: 'en-US' }
  const document = new PDFDocument({
    size: PAPER[paper],
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    lang: locale,
    displayTitle: true,
    info: { Title: fullTitle({ title, date }), ...(plain(options.company ?? '') ? { Subject: plain(options.company ?? '') } : {}) },
  })
  const { regular, bold } = loadedFonts()
  // pdfkit takes a parsed font where its typings expect the file's bytes.
  document.registerFont('Body', regular as unknown as Buffer)
  document.registerFont('Bold', bold as unknown as Buffer)
  const done = collect(document)

  writeTitle(document, title, date)
  await writeBody(document, options)
  await writeContacts(document, options)
  await writeFooters(document, options.credit ? publicLink(options.link) : null)
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

function writeTitle(document: PDFKit.PDFDocument, title: string, date: string) {
  const width = contentWidth(document)
  document.font('Bold').fontSize(TITLE_SIZE).fillColor(PRIMARY).text(title, { align: 'center', width, lineGap: LINE_GAP })
  if (date) document.moveDown(0.2).font('Body').fontSize(BODY_SIZE).fillColor(SECONDARY).text(date, { align: 'center', width })
  const y = document.y + 6
  document
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + width, y)
    .lineWidth(1.5)
    .strokeColor(ACCENT)
    .stroke()
  document.y = y + 12
}

async function writeBody(document: PDFKit.PDFDocument, { narrative, sections }: NarrativeDocxOptions) {
  if (plain(narrative ?? '')) return paragraphs(document, narrative ?? '')
  for (const [key, heading] of SECTION_HEADINGS) {
    const text = sections?.[key] ?? ''
    if (!plain(text)) continue
    writeHeading(document, heading)
    await paragraphs(document, text)
  }
}

async function writeContacts(document: PDFKit.PDFDocument, { contacts, website }: NarrativeDocxOptions) {
  const contactText = plain(contacts ?? '')
  if (contactText && contactText.toLowerCase() !== 'empty') {
    writeHeading(document, 'Contact Information')
    for (const line of contactText.split('\n').filter((part) => part.trim())) await bodyText(document, line.trim())
  }
  const site = plain(website ?? '')
  if (site) {
    writeHeading(document, 'Website')
    await bodyText(document, site)
  }
}

function writeHeading(document: PDFKit.PDFDocument, text: string) {
  document
    .moveDown(0.6)
    .font('Bold')
    .fontSize(HEADING_SIZE)
    .fillColor(PRIMARY)
    .text(text, { width: contentWidth(document), lineGap: LINE_GAP })
  document.moveDown(0.3)
}

/** Paragraphs at blank lines; a single newline inside one is kept as a line break. */
async function paragraphs(document: PDFKit.PDFDocument, text: string) {
  for (const block of plain(text).split(/\n[ \t]*\n\s*/)) await bodyText(document, block)
}

/**
 * Laying out text costs about 5 ms a thousand characters: a paragraph is set a piece at a time, with a
 * turn of the event loop between pieces, so a long edited narrative never holds the server
 * (docs/decisions/025). A run of characters with no space is given places to break, which the line
 * breaker would otherwise search for, character by character, at a cost that grows with the square of its length.
 */
async function bodyText(document: PDFKit.PDFDocument, text: string) {
  const pieces = piecesOf(text.replace(LONG_RUN, (run) => run.replace(/.{30}/gu, '$&\u200B')))
  document.font('Body').fontSize(BODY_SIZE).fillColor(TEXT)
  for (const [index, piece] of pieces.entries()) {
    const last = index === pieces.length - 1
    document.text(piece, { width: contentWidth(document), lineGap: LINE_GAP, paragraphGap: last ? PARAGRAPH_AFTER : 0, continued: !last })
    await pause()
  }
}

/** A turn of the event loop when this document has held it for TURN_MS. */
const TURN_MS = 8
let heldSince = performance.now()
async function pause() {
  if (performance.now() - heldSince < TURN_MS) return
  await new Promise((resolve) => setImmediate(resolve))
  heldSince = performance.now()
}

const LONG_RUN = /\S{31,}/g
const PIECE_CHARS = 1000

/** The text in pieces of about PIECE_CHARS, each ending after a space or a line break. */
function piecesOf(text: string): string[] {
  const pieces: string[] = []
  let start = 0
  while (text.length - start > PIECE_CHARS) {
    const end = Math.max(
      text.lastIndexOf(' ', start + PIECE_CHARS),
      text.lastIndexOf('\n', start + PIECE_CHARS),
      text.lastIndexOf('\u200B', start + PIECE_CHARS),
    )
    const cut = end > start ? end + 1 : start + PIECE_CHARS
    pieces.push(text.slice(start, cut))
    start = cut
  }
  pieces.push(text.slice(start))
  return pieces
}

/** "Page X of Y" on every page; with the operator's credit on, the product's name and link above it. */
async function writeFooters(document: PDFKit.PDFDocument, link: string | null) {
  const { start, count } = document.bufferedPageRange()
  for (let index = start; index < start + count; index++) {
    document.switchToPage(index)
    // Writing inside the bottom margin would start a new page: the margin is lifted while the footer is drawn.
    const bottom = document.page.margins.bottom
    document.page.margins.bottom = 0
    const width = contentWidth(document)
    const y = document.page.height - MARGIN / 2 - (link ? FOOTER_SIZE * 2.6 : FOOTER_SIZE * 1.3)
    document.font('Body').fontSize(FOOTER_SIZE).fillColor(SECONDARY)
    if (link) document.text(`${PRODUCT_CREDIT} · ${link}`, MARGIN, y, { width, align: 'center', lineBreak: false })
    document.text(`Page ${index - start + 1} of ${count}`, MARGIN, link ? y + FOOTER_SIZE * 1.3 : y, {
      width,
      align: 'center',
      lineBreak: false,
    })
    document.page.margins.bottom = bottom
    await pause()
  }
}

function contentWidth(document: PDFKit.PDFDocument) {
  return document.page.width - MARGIN * 2
}

/** The app's text hygiene, newlines normalised; no control character reaches the page. */
function plain(value: string): string {
  return cleanText(value.replace(/\r\n?/g, '\n'))
}
