// Reads an uploaded call in a worker thread (docs/decisions/031); run with its types stripped, so it imports only packages
// and Node's own modules. Headings become "# ", list items "- ", a table's cells are joined by " | ".
import os from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import zlib from 'node:zlib'
import mammoth from 'mammoth'
import { getDocumentProxy } from 'unpdf'

/** A Word file's entries come checked against its bytes (zip-structure.server.ts): none is unpacked yet. */
type ZipEntry = { method: number; compressed: number; size: number; dataAt: number }
type Job =
  | { kind: 'docx'; bytes: Uint8Array; entries: ZipEntry[]; maxCharacters: number }
  | { kind: 'pdf'; bytes: Uint8Array; maxCharacters: number }
export type CallFileAnswer = { text: string } | { refused: 'unreadable' | 'encrypted' | 'too-long' }

const job = workerData as Job

// On Linux a thread has its own priority: reading gives way to the server's answers (elsewhere it would lower the whole server's).
if (process.platform === 'linux') os.setPriority(19)

async function read(): Promise<CallFileAnswer> {
  if (job.kind === 'docx') {
    // A zip that lies about its sizes is caught at the size it declared, before the parser sees it.
    if (!job.entries.every(unpacksAsDeclared)) return { refused: 'unreadable' }
    const { value } = await mammoth.convertToHtml({ buffer: Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength) })
    return bounded(textOfHtml(value))
  }
  const pdf = await getDocumentProxy(job.bytes, { stopAtErrors: true, verbosity: 0 })
  let text = ''
  for (let page = 1; page <= pdf.numPages && text.length <= job.maxCharacters; page++) {
    text += `${textOfPage(await (await pdf.getPage(page)).getTextContent())}\n\n`
  }
  return bounded(text)
}

function bounded(text: string): CallFileAnswer {
  const tidy = text
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  return tidy.length > job.maxCharacters ? { refused: 'too-long' } : { text: tidy }
}

function unpacksAsDeclared({ method, compressed, size, dataAt }: ZipEntry): boolean {
  if (method === 0) return compressed === size
  if (method !== 8) return false
  try {
    zlib.inflateRawSync(job.bytes.subarray(dataAt, dataAt + compressed), { maxOutputLength: Math.max(size, 1) })
    return true
  } catch {
    return false
  }
}

const ENTITIES = new Map(Object.entries({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }))

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1].toLowerCase() === 'x' ? parseInt(name.slice(2), 16) : Number(name.slice(1))
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ''
    }
    return ENTITIES.get(name.toLowerCase()) ?? whole
  })
}

const stripTags = (html: string) => html.replace(/<[^>]*>/g, ' ')

/** mammoth's HTML is a small, regular subset: headings, paragraphs, lists, tables. */
function textOfHtml(html: string): string {
  const withTables = html.replace(/<table[^>]*>([\s\S]*?)<\/table>/g, (_, table: string) =>
    [...table.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)]
      .map(([, row]) =>
        [...row.matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map(([, cell]) => stripTags(cell).replace(/\s+/g, ' ').trim()).join(' | '),
      )
      .map((row) => `\n${row}`)
      .join('')
      .concat('\n\n'),
  )
  const structured = withTables
    .replace(/<h([1-6])[^>]*>/g, (_, level: string) => `\n\n${'#'.repeat(Number(level))} `)
    .replace(/<\/h[1-6]>/g, '\n\n')
    .replace(/<li[^>]*>/g, '\n- ')
    .replace(/<br\s*\/?>/g, '\n')
    .replace(/<\/(?:p|ul|ol|li)>/g, '\n')
  return decodeEntities(stripTags(structured))
}

type TextItem = { str: string; transform: number[]; width: number; hasEOL: boolean }
type TextContent = { items: unknown[] }

/** Column gaps wider than this, in points, part a table's cells; a word space is 2 to 4. */
const CELL_GAP = 14
const LIST_MARKER = /^(?:\d{1,2}[.)]|[a-z][.)]|[•●▪◦‣–-])$/

function textOfPage(content: TextContent): string {
  // Spaces are items too, as wide as the gap they fill: the gaps are measured between the words instead.
  const items = content.items.filter(
    (item): item is TextItem => typeof (item as TextItem).str === 'string' && (item as TextItem).str.trim() !== '',
  )
  const lines = new Map<number, { y: number; items: TextItem[] }>()
  for (const item of items) {
    const y = item.transform[5]
    const key = Math.round(y / 2)
    const line = lines.get(key) ?? lines.get(key - 1) ?? lines.get(key + 1)
    if (line) line.items.push(item)
    else lines.set(key, { y, items: [item] })
  }
  return [...lines.values()]
    .sort((a, b) => b.y - a.y)
    .map(({ items: parts }) => {
      parts.sort((a, b) => a.transform[4] - b.transform[4])
      let text = ''
      let end: number | null = null
      for (const part of parts) {
        const x = part.transform[4]
        // A list's number or bullet is set apart from its item by a tab, not a table's column.
        const gap = end === null ? 0 : x - end
        if (end !== null)
          text += gap > CELL_GAP && !LIST_MARKER.test(text) ? ' | ' : gap > 1 && !text.endsWith(' ') && !part.str.startsWith(' ') ? ' ' : ''
        text += part.str
        end = x + part.width
      }
      return text.trim()
    })
    .join('\n')
}

read().then(
  (answer) => parentPort!.postMessage(answer),
  (error: unknown) => {
    const name = (error as { name?: string } | null)?.name
    parentPort!.postMessage({ refused: name === 'PasswordException' ? 'encrypted' : 'unreadable' } satisfies CallFileAnswer)
  },
)
