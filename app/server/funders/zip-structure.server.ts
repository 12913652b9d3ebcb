// A Word file's zip, checked byte for byte before anything is unpacked (docs/decisions/031). JSZip (mammoth's) reads a zip
// that is not plain its own way (the LAST end record anywhere, shifted offsets, entries past the declared count), so a zip
// is taken only when every byte is accounted for: entries from byte 0, the directory, the one end record, its comment.

export type ZipEntry = { name: string; method: number; compressed: number; size: number; dataAt: number }

const LOCAL = 0x04034b50
const CENTRAL = 0x02014b50
const DESCRIPTOR = 0x08074b50
const END_SIGNATURE = Buffer.from([0x50, 0x4b, 0x05, 0x06])
/** Bit 0: encrypted (JSZip refuses it); bit 3: sizes and CRC in a descriptor after the data. */
const ENCRYPTED = 0x1
const DATA_DESCRIPTOR = 0x8

type CentralEntry = ZipEntry & { crc: number; flags: number; nameBytes: Uint8Array; localAt: number }

/** The entries, or null when the zip is not plain (the caller refuses it as damaged). */
export function readZipDirectory(bytes: Uint8Array): ZipEntry[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const u16 = (at: number) => (at + 2 <= bytes.length ? view.getUint16(at, true) : -1)
  const u32 = (at: number) => (at + 4 <= bytes.length ? view.getUint32(at, true) : -1)
  // JSZip's own lookup: the last signature anywhere.
  const end = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).lastIndexOf(END_SIGNATURE)
  if (end < 0 || end + 22 + u16(end + 20) !== bytes.length) return null
  const [disk, directoryDisk, onDisk, count, directorySize, directoryAt] = [
    u16(end + 4),
    u16(end + 6),
    u16(end + 8),
    u16(end + 10),
    u32(end + 12),
    u32(end + 16),
  ]
  // Any 0xFFFF or 0xFFFFFFFF here sends JSZip to a ZIP64 directory elsewhere: no Word file of a call needs one.
  if (disk !== 0 || directoryDisk !== 0 || onDisk !== count || count === 0 || count === 0xffff) return null
  if (directoryAt + directorySize !== end) return null
  const entries = readCentral(view, u16, u32, directoryAt, count, end)
  if (!entries) return null
  return walkLocals(bytes, u16, u32, entries, directoryAt)
    ? entries.map(({ name, method, compressed, size, dataAt }) => ({ name, method, compressed, size, dataAt }))
    : null
}

function readCentral(
  view: DataView,
  u16: (at: number) => number,
  u32: (at: number) => number,
  at: number,
  count: number,
  end: number,
): CentralEntry[] | null {
  const entries: CentralEntry[] = []
  const names = new Set<string>()
  for (let index = 0; index < count; index++) {
    if (u32(at) !== CENTRAL) return null
    const [flags, method, crc, compressed, size, nameLength, extraLength, commentLength, disk, localAt] = [
      u16(at + 8),
      u16(at + 10),
      u32(at + 16),
      u32(at + 20),
      u32(at + 24),
      u16(at + 28),
      u16(at + 30),
      u16(at + 32),
      u16(at + 34),
      u32(at + 42),
    ]
    if (flags & ENCRYPTED || disk !== 0 || [compressed, size, localAt].includes(0xffffffff)) return null
    const nameBytes = new Uint8Array(view.buffer, view.byteOffset + at + 46, nameLength)
    const name = Buffer.from(nameBytes).toString('latin1')
    if (names.has(name)) return null
    names.add(name)
    entries.push({ name, method, compressed, size, crc, flags, nameBytes, localAt, dataAt: -1 })
    at += 46 + nameLength + extraLength + commentLength
    if (at > end) return null
  }
  // The directory ends where the end record begins: nothing JSZip would read as one more entry.
  return at === end ? entries : null
}

/** Every local entry in turn from byte 0, each its directory entry's, and the directory right after the last. */
function walkLocals(
  bytes: Uint8Array,
  u16: (at: number) => number,
  u32: (at: number) => number,
  entries: CentralEntry[],
  directoryAt: number,
): boolean {
  let at = 0
  for (const entry of [...entries].sort((a, b) => a.localAt - b.localAt)) {
    if (entry.localAt !== at || u32(at) !== LOCAL) return false
    const [flags, method, crc, compressed, size, nameLength, extraLength] = [
      u16(at + 6),
      u16(at + 8),
      u32(at + 14),
      u32(at + 18),
      u32(at + 22),
      u16(at + 26),
      u16(at + 28),
    ]
    const name = bytes.subarray(at + 30, at + 30 + nameLength)
    if (method !== entry.method || (flags & DATA_DESCRIPTOR) !== (entry.flags & DATA_DESCRIPTOR)) return false
    if (!Buffer.from(name).equals(entry.nameBytes)) return false
    // With a descriptor, the local header may leave the sizes and CRC as zeros.
    const deferred = flags & DATA_DESCRIPTOR && crc === 0 && compressed === 0 && size === 0
    if (!deferred && (crc !== entry.crc || compressed !== entry.compressed || size !== entry.size)) return false
    entry.dataAt = at + 30 + nameLength + extraLength
    at = entry.dataAt + entry.compressed
    if (at > directoryAt) return false
    if (flags & DATA_DESCRIPTOR) {
      const length = descriptorLength(u32, at, entry)
      if (length === 0) return false
      at += length
    }
  }
  return at === directoryAt
}

/** A descriptor's length (with or without its signature, 32- or 64-bit sizes) when it repeats the directory's values; 0 otherwise. */
function descriptorLength(u32: (at: number) => number, at: number, entry: CentralEntry): number {
  const start = u32(at) === DESCRIPTOR && entry.crc !== DESCRIPTOR ? at + 4 : at
  const signature = start - at
  if (u32(start) !== entry.crc || u32(start + 4) !== entry.compressed) return 0
  const followed = (length: number) => [LOCAL, CENTRAL].includes(u32(at + length))
  if (u32(start + 8) === entry.size && followed(signature + 12)) return signature + 12
  const wide = u32(start + 8) === 0 && u32(start + 12) === entry.size && u32(start + 16) === 0
  return wide && followed(signature + 20) ? signature + 20 : 0
}
