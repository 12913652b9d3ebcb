import fs from 'node:fs'
import path from 'node:path'

// Everything the code, tests, scripts and docs cite must be inside this repository: a reader needs
// nothing but the clone. docs/spec.md is the product's specification, docs/decisions/ the reasons.

const ROOTS = ['app', 'tests', 'scripts', 'prisma', 'docs', '.ci']
const TOP_LEVEL = /^(README\.md|Dockerfile|package\.json|[\w.-]+\.(ts|js))$/
const TEXT_FILE = /\.(ts|tsx|js|mjs|cjs|md|sql|prisma|json|sh|css|yml|yaml)$|^(Dockerfile|run)$/
// app/generated: Prisma's generated clients (git-ignored), whose comments cite Prisma's documentation.
const SKIPPED = new Set(['node_modules', 'build', '.react-router', 'app/generated', 'tests/.tmp', 'docs/screenshots'])
// This file has to name what it looks for.
const THIS_FILE = 'tests/unit/references.test.ts'
// .ci/run runs the CI machine's own tool for the Docker base image, kept beside the checkout: a program
// it calls when Docker Hub is out of reach, not a document it cites (docs/decisions/028).
const CI_MACHINE_TOOL = 'base_image_tool=../shared/tools/node-base-image.sh'
// A migration applied anywhere is never edited: Prisma checksums each file, and `migrate deploy` warns
// at every start of an instance whose copy differs. Their comments may keep the old issue numbers.
const MIGRATION = /^prisma\/(postgres\/)?migrations\/[^/]+\/migration\.sql$/

type Source = { file: string; lines: string[] }

function listFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name)
    if (SKIPPED.has(file) || SKIPPED.has(entry.name)) return []
    if (entry.isDirectory()) return listFiles(file)
    return TEXT_FILE.test(entry.name) ? [file] : []
  })
}

const files = [
  ...fs.readdirSync('.').filter((name) => TOP_LEVEL.test(name) && fs.statSync(name).isFile()),
  ...ROOTS.filter((root) => fs.existsSync(root)).flatMap(listFiles),
].filter((file) => file !== THIS_FILE)
const sources: Source[] = files.map((file) => ({ file, lines: fs.readFileSync(file, 'utf8').split('\n') }))
const markdown = sources.filter((source) => source.file.endsWith('.md'))

/** Every match of `pattern` in the sources that `each` finds wrong, as "file:line: what is wrong". */
function findAll(
  pattern: RegExp,
  inSources: Source[] = sources,
  each: (match: RegExpMatchArray, file: string) => string | null = (match) => match[0],
) {
  const global = new RegExp(pattern.source, `${pattern.flags}g`)
  return inSources.flatMap(({ file, lines }) =>
    lines.flatMap((line, index) =>
      [...line.matchAll(global)].flatMap((match) => {
        const problem = each(match, file)
        return problem ? [`${file}:${index + 1}: ${problem}`] : []
      }),
    ),
  )
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

const anchorCache = new Map<string, Set<string>>()
function anchorsOf(file: string): Set<string> {
  let anchors = anchorCache.get(file)
  if (anchors) return anchors
  anchors = new Set()
  const seen = new Map<string, number>()
  let fenced = false
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!heading) continue
    const base = slug(heading[1])
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  }
  anchorCache.set(file, anchors)
  return anchors
}

const decisionFiles = fs.readdirSync('docs/decisions')
const decisionExists = (number: string) => decisionFiles.some((name) => name.startsWith(`${number}-`) && name.endsWith('.md'))

/** Null when `target` (a repository path, with an optional #anchor) exists; else what is wrong. */
function checkTarget(target: string): string | null {
  const [file, anchor] = target.split('#')
  const decision = /^docs\/decisions\/(\d{3})$/.exec(file)
  if (decision) return decisionExists(decision[1]) ? null : `${target}: no decision ${decision[1]}`
  if (!fs.existsSync(file)) return `${target}: no such file`
  if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(file).has(anchor)) return `${target}: no heading with this anchor`
  return null
}

describe('references inside the repository', () => {
  it('finds the files it checks', () => {
    expect(files).toContain('README.md')
    expect(files).toContain('docs/spec.md')
    expect(files).toContain('app/root.tsx')
  })

  it('cites no document outside it: the first spec and design notes, the shared folder, issue numbers', () => {
    const cited = [
      ...findAll(/\b(SPEC|DESIGN|SECURITY|STYLE)\.md\b/),
      ...findAll(
        /(^|[^\w~])\.\.\/shared\b|\/work\/shared\b/,
        sources.map((source) =>
          source.file === '.ci/run' ? { ...source, lines: source.lines.map((line) => (line === CI_MACHINE_TOOL ? '' : line)) } : source,
        ),
      ),
      ...findAll(
        /\b[Ii]ssues? #?\d+/,
        sources.filter((source) => !MIGRATION.test(source.file)),
      ),
    ]
    expect(cited, 'cite docs/spec.md, docs/decisions/NNN or another file of the repository instead').toEqual([])
  })

  it('cites only docs files, decisions and anchors that exist', () => {
    const broken = [
      ...findAll(/\bdocs\/[\w./-]*\w(?:#[\w-]+)?/, sources, (match) => checkTarget(match[0])),
      // "decision 014", "decisions 018 and 020", "decisions 017-020"
      ...findAll(/\bdecisions? (\d{3}(?:(?:,|, and| and|-|–| to) ?\d{3})*)\b/, sources, (match) => {
        const missing = match[1].match(/\d{3}/g)!.filter((number) => !decisionExists(number))
        return missing.length ? `${match[0]}: no decision ${missing.join(', ')}` : null
      }),
    ]
    expect(broken).toEqual([])
  })

  it('links Markdown only to files and headings that exist', () => {
    const broken = findAll(/\]\(([^)\s]+)\)/, markdown, ([, target], file) => {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null
      const [relative, anchor] = target.split('#')
      const linked = relative ? path.posix.normalize(path.posix.join(path.posix.dirname(file), relative)) : file
      return checkTarget(anchor === undefined ? linked : `${linked}#${anchor}`)
    })
    expect(broken).toEqual([])
  })

  it('names in the docs only source paths that exist', () => {
    const missing = findAll(/(?<![@\w./-])(?:app|tests|scripts|prisma|public|\.ci)\/[\w.$+/-]*[\w$]/, markdown, (match) =>
      match[0].startsWith('tests/.tmp') || fs.existsSync(match[0]) ? null : `${match[0]}: no such file`,
    )
    expect(missing).toEqual([])
  })

  it('reads anchors the way GitHub makes them', () => {
    expect(slug('Word document')).toBe('word-document')
    expect(slug('Sign-in')).toBe('sign-in')
    expect(slug('Input, output, headers')).toBe('input-output-headers')
    expect(slug('`GET /auth/` entries')).toBe('get-auth-entries')
  })
})
