// File helpers shared by the backup and restore commands.
import fs from 'node:fs'

/** Flushes a file to disk before it is given its final name. */
export function fsyncFile(file: string) {
  const fd = fs.openSync(file, 'r+')
  try {
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
}

/** Makes a rename durable. Not every platform can fsync a directory; the file itself is on disk. */
export function fsyncDirectory(dir: string) {
  try {
    const fd = fs.openSync(dir, 'r')
    try {
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
  } catch {
    // See above.
  }
}
