// Crafted files of a funder's call, each one a way a parser can be made to stall, to burst or to be
// fooled (docs/decisions/031). The hostile catalogue sends them at the built app; the tests send them
// to the routes directly. Each is built in memory, in milliseconds.
import zlib from 'node:zlib'

const MB = 1024 * 1024

/** A zip archive of `entries`, each stored deflated, whose headers declare `declared(size)` as each one's unpacked size. */
function zip(entries: { name: string; deflated: Buffer; size: number; crc: number }[], declared = (size: number) => size): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(8, 8) // deflated
    local.writeUInt32LE(entry.crc, 14)
    local.writeUInt32LE(entry.deflated.length, 18)
    local.writeUInt32LE(declared(entry.size), 22)
    local.writeUInt16LE(name.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(8, 10)
    central.writeUInt32LE(entry.crc, 16)
    central.writeUInt32LE(entry.deflated.length, 20)
    central.writeUInt32LE(declared(entry.size), 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, entry.deflated)
    centrals.push(central, name)
    offset += local.length + name.length + entry.deflated.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

function entry(name: string, content: string) {
  const data = Buffer.from(content)
  return { name, deflated: zlib.deflateRawSync(data), size: data.length, crc: zlib.crc32(data) }
}

/** `megabytes` of spaces, deflated without holding them: one compressed megabyte repeated, then the stream's end. */
function deflatedSpaces(megabytes: number): Buffer {
  const block = zlib.deflateRawSync(Buffer.alloc(MB, 0x20), { finishFlush: zlib.constants.Z_SYNC_FLUSH })
  return Buffer.concat([...Array.from({ length: megabytes }, () => block), zlib.deflateRawSync(Buffer.alloc(0))])
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`
const RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`

/**
 * A Word file whose document unpacks to `megabytes` of spaces. `honest`: its headers say so (refused
 * before anything is unpacked); otherwise they claim 1 KB, and the reader's bounds stop it.
 */
export function zipBombDocx(megabytes: number, { honest }: { honest: boolean }): Buffer {
  const bomb = { name: 'word/document.xml', deflated: deflatedSpaces(megabytes), size: megabytes * MB, crc: 0 }
  return zip([entry('[Content_Types].xml', CONTENT_TYPES), entry('_rels/.rels', RELS), bomb], (size) => (honest || size < MB ? size : 1024))
}

/** A zip that is no Word document: none of its parts are. */
export function zipNotDocx(): Buffer {
  return zip([entry('notes.txt', 'Just some notes in a zip.')])
}

/** A PDF whose page tree contains itself: a reader that follows it without care never ends. */
export function loopingPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>',
    '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>',
  ]
  let body = '%PDF-1.7\n'
  const offsets: number[] = []
  objects.forEach((object, index) => {
    offsets.push(body.length)
    body += `${index + 1} 0 obj\n${object}\nendobj\n`
  })
  const xref = body.length
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('')}`
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Prev ${xref} >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(body, 'latin1')
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
