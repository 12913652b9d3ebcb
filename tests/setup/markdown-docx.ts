import { Document, LevelFormat, Packer, Paragraph, Table, TableCell, TableRow, TextRun, WidthType, HeadingLevel } from 'docx'

// A call written in Markdown, as the Word file a funder would publish: headings as Word headings, bullets and
// numbered items as Word lists, pipe tables as Word tables. For the corpus's calls marked `docx`.

const NUMBERING = {
  config: [
    { reference: 'bullets', levels: [{ level: 0, format: LevelFormat.BULLET, text: '•' }] },
    { reference: 'numbers', levels: [{ level: 0, format: LevelFormat.DECIMAL, text: '%1.' }] },
  ],
}
const HEADINGS = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3, HeadingLevel.HEADING_4]

/** `**bold**` as bold runs; other Markdown marks are kept as typed. */
function runs(text: string) {
  return text
    .split(/(\*\*[^*]+\*\*)/)
    .map((part) =>
      part.startsWith('**') && part.endsWith('**') ? new TextRun({ text: part.slice(2, -2), bold: true }) : new TextRun(part),
    )
}

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim())

function table(rows: string[]) {
  const body = rows.filter((row) => !/^\s*\|?\s*:?-{3,}/.test(row)).map(cells)
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: body.map(
      (row) => new TableRow({ children: row.map((cell) => new TableCell({ children: [new Paragraph({ children: runs(cell) })] })) }),
    ),
  })
}

export async function markdownDocx(markdown: string): Promise<Buffer> {
  const children: (Paragraph | Table)[] = []
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n')
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]
    if (line.trim().startsWith('|')) {
      const rows: string[] = []
      while (index < lines.length && lines[index].trim().startsWith('|')) rows.push(lines[index++])
      index--
      children.push(table(rows))
      continue
    }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line)
    const bullet = /^\s*[-*•]\s+(.*)$/.exec(line)
    const numbered = /^\s*\d{1,2}[.)]\s+(.*)$/.exec(line)
    if (heading) children.push(new Paragraph({ children: runs(heading[2]), heading: HEADINGS[heading[1].length - 1] }))
    else if (bullet) children.push(new Paragraph({ children: runs(bullet[1]), numbering: { reference: 'bullets', level: 0 } }))
    else if (numbered) children.push(new Paragraph({ children: runs(numbered[1]), numbering: { reference: 'numbers', level: 0 } }))
    else if (line.trim()) children.push(new Paragraph({ children: runs(line.trim()) }))
  }
  return Packer.toBuffer(new Document({ numbering: NUMBERING, sections: [{ children }] }))
}
