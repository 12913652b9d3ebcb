import { inflateRawSync } from 'node:zlib'

// A .docx is a zip. jszip is not installed (docx v9 uses fflate internally), so the central directory is
// read with node:zlib: enough for stored and deflated entries.
export function unzip(buffer: Buffer): Map<string, string> {
  const end = buffer.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  const count = buffer.readUInt16LE(end + 10)
  let entry = buffer.readUInt32LE(end + 16)
  const files = new Map<string, string>()
  for (let i = 0; i < count; i++) {
    const method = buffer.readUInt16LE(entry + 10)
    const size = buffer.readUInt32LE(entry + 20)
    const nameLength = buffer.readUInt16LE(entry + 28)
    const skip = nameLength + buffer.readUInt16LE(entry + 30) + buffer.readUInt16LE(entry + 32)
    const name = buffer.toString('utf8', entry + 46, entry + 46 + nameLength)
    const local = buffer.readUInt32LE(entry + 42)
    const start = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28)
    const data = buffer.subarray(start, start + size)
    files.set(name, (method === 8 ? inflateRawSync(data) : data).toString('utf8'))
    entry += 46 + skip
  }
  return files
}
