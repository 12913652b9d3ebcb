import fs from 'node:fs'
import JSZip from 'jszip'
import { readZipDirectory } from '~/server/funders/zip-structure.server'
import { secondDirectoryDocx, zipBombDocx } from '../../scripts/hostile/call-files'

// A Word file's zip is taken only when every byte is accounted for, so the directory checked is the one mammoth's
// JSZip reads (docs/decisions/031). Real files, from Word's kind of writer, LibreOffice and JSZip, pass
// (libreoffice-call.docx: a three-line text file converted by `soffice --headless --convert-to docx`).

const MB = 1024 * 1024
const WORD_LIKE = fs.readFileSync('tests/fixtures/funders/community-foundation.docx')
const read = (bytes: Buffer) => readZipDirectory(new Uint8Array(bytes))

async function jszipDocx(streamFiles: boolean) {
  const zip = new JSZip()
  zip.file('[Content_Types].xml', '<Types/>')
  zip.file('word/document.xml', 'Priorities: food security. '.repeat(200))
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', streamFiles })
}

it('takes Word files as their writers make them, data descriptors (bit 3) included', async () => {
  const streamed = await jszipDocx(true)
  expect(streamed.readUInt16LE(6) & 0x8).toBe(0x8)
  for (const bytes of [WORD_LIKE, fs.readFileSync('tests/fixtures/funders/libreoffice-call.docx'), streamed, await jszipDocx(false)]) {
    const entries = read(bytes)
    expect(entries?.map((entry) => entry.name)).toContain('[Content_Types].xml')
  }
  expect(read(zipBombDocx(1, { honest: true }))?.map((entry) => entry.size)).toContain(MB)
})

it("refuses the file whose end record's directory is honest but whose second directory JSZip reads holds 1 GB declared as 1 KB", async () => {
  const bytes = secondDirectoryDocx()
  expect(bytes.length).toBeLessThan(2.5 * MB)
  // What mammoth would unpack: JSZip's directory names a document of a megabyte packed, declared as 1 KB.
  const document = (await JSZip.loadAsync(bytes)).files['word/document.xml'] as unknown as {
    _data: { compressedSize: number; uncompressedSize: number }
  }
  expect(document._data).toMatchObject({ compressedSize: expect.any(Number), uncompressedSize: 1024 })
  expect(document._data.compressedSize).toBeGreaterThan(MB)
  expect(read(bytes)).toBeNull()
})

const changed = (change: (bytes: Buffer) => Buffer) => change(Buffer.from(WORD_LIKE))
const endAt = (bytes: Buffer) => bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))

it.each([
  ['data before the first entry', () => Buffer.concat([Buffer.alloc(16), WORD_LIKE])],
  ['a second end record', () => Buffer.concat([WORD_LIKE, WORD_LIKE.subarray(endAt(WORD_LIKE))])],
  ['bytes after the end record', () => Buffer.concat([WORD_LIKE, Buffer.from('tail')])],
  ['a local name unlike its directory entry', () => changed((bytes) => (bytes[30]++, bytes))],
  ['a local compression method unlike its directory entry', () => changed((bytes) => (bytes.writeUInt16LE(0, 8), bytes))],
  ['a local size unlike its directory entry', () => changed((bytes) => (bytes.writeUInt32LE(bytes.readUInt32LE(22) + 1, 22), bytes))],
  [
    'a local entry no directory entry names',
    () => {
      const end = endAt(WORD_LIKE)
      const directoryAt = WORD_LIKE.readUInt32LE(end + 16)
      const extra = Buffer.concat([WORD_LIKE.subarray(0, 30), Buffer.from('x')])
      extra.writeUInt16LE(1, 26)
      extra.writeUInt16LE(0, 28)
      extra.writeUInt32LE(0, 18)
      const record = Buffer.from(WORD_LIKE.subarray(end))
      record.writeUInt32LE(directoryAt + extra.length, 16)
      return Buffer.concat([WORD_LIKE.subarray(0, directoryAt), extra, WORD_LIKE.subarray(directoryAt, end), record])
    },
  ],
])('refuses a zip with %s', (_, make) => {
  expect(read(make())).toBeNull()
})
