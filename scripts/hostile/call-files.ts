// Crafted files of a funder's call, each one a way a parser can be made to stall, to burst or to be
// fooled (docs/decisions/031). The hostile catalogue sends them at the built app; the tests send them
// to the routes directly. Each is built in memory, in milliseconds.
import zlib from 'node:zlib'

const MB = 1024 * 1024

type Entry = { name: string; deflated: Buffer; size: number; crc: number; stored?: boolean }

/**
 * A zip's local entries and central directory, its entries stored deflated (or `stored`), whose headers declare
 * `declared(size)` as each one's unpacked size; the directory gives each entry's place as `at` + its place in `locals`.
 */
function zipRecords(entries: Entry[], declared = (size: number) => size, at = 0) {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name)
    const method = entry.stored ? 0 : 8
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(method, 8)
    local.writeUInt32LE(entry.crc, 14)
    local.writeUInt32LE(entry.deflated.length, 18)
    local.writeUInt32LE(declared(entry.size), 22)
    local.writeUInt16LE(name.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(method, 10)
    central.writeUInt32LE(entry.crc, 16)
    central.writeUInt32LE(entry.deflated.length, 20)
    central.writeUInt32LE(declared(entry.size), 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(at + offset, 42)
    locals.push(local, name, entry.deflated)
    centrals.push(central, name)
    offset += local.length + name.length + entry.deflated.length
  }
  return { locals: Buffer.concat(locals), directory: Buffer.concat(centrals) }
}

/** The end-of-central-directory record: `count` entries, a directory of `size` bytes at `offset`. */
function endRecord(count: number, size: number, offset: number): Buffer {
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(count, 8)
  end.writeUInt16LE(count, 10)
  end.writeUInt32LE(size, 12)
  end.writeUInt32LE(offset, 16)
  return end
}

/** A zip archive of `entries`, whose headers declare `declared(size)` as each one's unpacked size. */
function zip(entries: Entry[], declared = (size: number) => size): Buffer {
  const { locals, directory } = zipRecords(entries, declared)
  return Buffer.concat([locals, directory, endRecord(entries.length, directory.length, locals.length)])
}

function entry(name: string, content: string) {
  const data = Buffer.from(content)
  return { name, deflated: zlib.deflateRawSync(data), size: data.length, crc: zlib.crc32(data) }
}

/** `megabytes` of spaces, deflated without holding them (raw, or `zlib.deflateSync` for a zlib stream as a PDF's): one compressed megabyte repeated, then the stream's end. */
function deflatedSpaces(megabytes: number, deflate = zlib.deflateRawSync): Buffer {
  const block = zlib.deflateRawSync(Buffer.alloc(MB, 0x20), { finishFlush: zlib.constants.Z_SYNC_FLUSH })
  if (deflate === zlib.deflateRawSync)
    return Buffer.concat([...Array.from({ length: megabytes }, () => block), zlib.deflateRawSync(Buffer.alloc(0))])
  // A zlib stream: its two-byte header, the raw blocks, an empty final block; pdf.js does not check the trailing sum.
  return Buffer.concat([
    Buffer.from([0x78, 0x9c]),
    ...Array.from({ length: megabytes }, () => block),
    zlib.deflateRawSync(Buffer.alloc(0)),
    Buffer.alloc(4),
  ])
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`
const DOCUMENT = `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Call for proposals: projects that reduce hunger.</w:t></w:r></w:p></w:body></w:document>`
const RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`

/**
 * A Word file whose document unpacks to `megabytes` of spaces. `honest`: its headers say so (refused
 * before anything is unpacked); otherwise they claim 1 KB, and the reader's bounds stop it.
 */
export function zipBombDocx(megabytes: number, { honest }: { honest: boolean }): Buffer {
  const bomb = { name: 'word/document.xml', deflated: deflatedSpaces(megabytes), size: megabytes * MB, crc: 0 }
  return zip([entry('[Content_Types].xml', CONTENT_TYPES), entry('_rels/.rels', RELS), bomb], (size) => (honest || size < MB ? size : 1024))
}

/**
 * An honest Word file whose document is 60 MB of XML, under the 64 MB a Word file may unpack to, deflated to a
 * few hundred kilobytes: a million short paragraphs, or one text of 60 million letters. Parsed, either takes a
 * heap past what one read may hold; a worker ended by its heap limit can abort the whole process (Node.js bug
 * nodejs/node#47224), so the read must be ended first, whatever the allocation's shape.
 */
export function hugeDocumentDocx(shape: 'paragraphs' | 'one-text'): Buffer {
  const paragraph = '<w:p><w:r><w:t>word</w:t></w:r></w:p>'
  const body =
    shape === 'paragraphs'
      ? paragraph.repeat((60 * 1_000_000) / paragraph.length)
      : `<w:p><w:r><w:t>${'a'.repeat(60_000_000)}</w:t></w:r></w:p>`
  const document = DOCUMENT.replace(/<w:body>.*<\/w:body>/, `<w:body>${body}</w:body>`)
  return zip([entry('[Content_Types].xml', CONTENT_TYPES), entry('_rels/.rels', RELS), entry('word/document.xml', document)])
}

/**
 * A 2 MB Word file with two directories. The one its end record points to is honest: a short call and 1.1 MB of
 * stored filler. But that directory ends before the end record begins, and JSZip (mammoth's reader) then takes the
 * gap for bytes prepended to the zip and shifts every offset by it (node_modules/jszip/lib/zipEntries.js,
 * readEndOfCentral: `this.reader.zero = extraBytes`): shifted, the directory it reads is a second one, whose
 * document is 1 GB of spaces declared as 1 KB, in local entries the honest directory never names.
 */
export function secondDirectoryDocx(): Buffer {
  const filler = Buffer.alloc(1.1 * MB)
  const honestEntries: Entry[] = [
    entry('[Content_Types].xml', CONTENT_TYPES),
    entry('_rels/.rels', RELS),
    entry('word/document.xml', DOCUMENT),
    { name: 'word/media/filler.bin', deflated: filler, size: filler.length, crc: zlib.crc32(filler), stored: true },
  ]
  const honest = zipRecords(honestEntries)
  const bombEntries: Entry[] = [
    ...honestEntries.slice(0, 2),
    { name: 'word/document.xml', deflated: deflatedSpaces(1024), size: 1024 * MB, crc: 0 },
    { ...honestEntries[3], deflated: Buffer.alloc(0), size: 0, crc: 0 },
  ]
  // JSZip's shift: the end record's offset plus the honest directory's size falls short of the end record by the
  // bomb's local entries and the second directory (as long as the first), so it reads the second directory and
  // finds each of its entries at (place in the file) - shift.
  const bombLength = zipRecords(bombEntries).locals.length
  const shift = honest.directory.length + bombLength
  const bombAt = honest.locals.length + honest.directory.length
  const bomb = zipRecords(bombEntries, (size) => (size < MB ? size : 1024), bombAt - shift)
  if (bomb.directory.length !== honest.directory.length || bombAt < shift) throw new Error('the two directories must be alike')
  return Buffer.concat([
    honest.locals,
    honest.directory,
    bomb.locals,
    bomb.directory,
    endRecord(honestEntries.length, honest.directory.length, honest.locals.length),
  ])
}

/** A zip that is no Word document: none of its parts are. */
export function zipNotDocx(): Buffer {
  return zip([entry('notes.txt', 'Just some notes in a zip.')])
}

/** An object of a PDF: a dictionary (or any value), or a dictionary with its stream's bytes. */
type PdfObject = string | { dictionary: string; stream: Buffer }

/** A PDF of `objects`, numbered from 1 (the first is the catalogue), with its cross-reference table. */
function pdfOf(objects: PdfObject[], trailerExtra = (_xref: number) => ''): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n', 'latin1')]
  let length = parts[0].length
  const add = (part: Buffer) => (parts.push(part), (length += part.length))
  const offsets = objects.map((object, index) => {
    const at = length
    if (typeof object === 'string') add(Buffer.from(`${index + 1} 0 obj\n${object}\nendobj\n`, 'latin1'))
    else {
      add(Buffer.from(`${index + 1} 0 obj\n${object.dictionary}\nstream\n`, 'latin1'))
      add(object.stream)
      add(Buffer.from('\nendstream\nendobj\n', 'latin1'))
    }
    return at
  })
  const xref = length
  const table = offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('')
  add(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${table}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${trailerExtra(xref)} >>\nstartxref\n${xref}\n%%EOF\n`,
      'latin1',
    ),
  )
  return Buffer.concat(parts)
}

/** A PDF whose page tree contains itself, and whose cross-references name themselves as their previous ones. */
export function loopingPdf(): Buffer {
  return pdfOf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>',
      '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>',
    ],
    (xref) => ` /Prev ${xref}`,
  )
}

/**
 * A PDF of `pages` pages that all draw one content stream of 400 KB of graphics operators and no text: small on the
 * wire, yet each page's text makes pdf.js parse the whole stream again, so reading it runs to the time limit.
 */
export function slowPdf(pages = 2000): Buffer {
  const content = Buffer.from('q 1 0 0 1 0 0 cm Q\n'.repeat(20_000), 'latin1')
  const kids = Array.from({ length: pages }, (_, index) => `${index + 4} 0 R`).join(' ')
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    { dictionary: `<< /Length ${content.length} >>`, stream: content },
    ...Array.from({ length: pages }, () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R >>'),
  ])
}

/**
 * A PDF of 490 KB whose one page's content stream inflates to `megabytes` of spaces: pdf.js unpacks it whole, into
 * buffers outside the worker's heap, then parses every byte of it.
 */
export function inflatingPdf(megabytes = 500): Buffer {
  const stream = deflatedSpaces(megabytes, zlib.deflateSync)
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
    { dictionary: `<< /Length ${stream.length} /Filter /FlateDecode >>`, stream },
  ])
}

/** Text in a file named .pdf. */
export const FAKE_PDF = Buffer.from('This is the call for proposals, saved as plain text and named .pdf by mistake.\n')

/** A program's bytes in a file named .txt. */
export const BINARY_TXT = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00])

/** A call of `bytes` bytes of plain text: too large to upload past 5 MB. */
export function largeText(bytes: number): Buffer {
  return Buffer.alloc(bytes, 'Priority will be given to projects. ')
}

/** A multipart body with one file, as a browser sends a form. */
export function multipart(fields: Record<string, string>, file: { name: string; bytes: Buffer; type?: string } | null) {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.set(name, value)
  if (file) form.set('file', new File([new Uint8Array(file.bytes)], file.name, { type: file.type ?? 'application/octet-stream' }))
  return form
}
