import fc from 'fast-check'

// Cost that grows with the input, measured as CPU time (user + system) so a busy machine's other work does
// not count: the input at a quarter of its cap and at its cap, each timed as the minimum of a few
// repetitions, with enough calls in each that one measurement takes tens of milliseconds. A linear path
// costs about 4× at 4× the size and a quadratic one 16×: the bound between them, 6.25×, is 2.5× a doubling.
// Up to 16 repetitions: on a busy two-core machine a linear path (an n log n one is 4.8×) was measured at 6.3-6.7×
// within 8 of them; a quadratic one is never under the bound however often it is measured.
export const GROWTH_BOUND = 6.25
const GROWTH = 4
const REPETITIONS = 16
const MEASURED_MS = 30
/** At its cap, a call cheaper than this holds nothing whatever its shape, and so small a time is mostly cache. */
const NEGLIGIBLE_MS = 0.5

export type Growth = { smallMs: number; largeMs: number; ratio: number }

async function cpuMs(run: () => unknown, calls: number): Promise<number> {
  const start = process.cpuUsage()
  for (let call = 0; call < calls; call++) await run()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}

/** How the cost of `run` grows from `make(cap / 4)` to `make(cap)`; it stops early once the growth is linear. */
export async function growthOf<Input>(run: (input: Input) => unknown, make: (chars: number) => Input, cap: number): Promise<Growth> {
  const small = make(Math.floor(cap / GROWTH))
  const large = make(cap)
  await cpuMs(() => run(small), 1)
  const calls = Math.max(1, Math.ceil(MEASURED_MS / Math.max(await cpuMs(() => run(small), 1), 0.01)))
  let smallMs = Infinity
  let largeMs = Infinity
  for (let repetition = 0; repetition < REPETITIONS; repetition++) {
    smallMs = Math.min(smallMs, await cpuMs(() => run(small), calls))
    largeMs = Math.min(largeMs, await cpuMs(() => run(large), calls))
    if (largeMs <= GROWTH_BOUND * smallMs) break
  }
  return { smallMs: smallMs / calls, largeMs: largeMs / calls, ratio: largeMs / smallMs }
}

export type Hostile = { name: string; make: (chars: number) => string }

/** `unit` repeated to `chars` characters, never ending inside a surrogate pair. */
export function repeated(unit: string, chars: number): string {
  const text = unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars)
  return /[\ud800-\udbff]$/.test(text) ? text.slice(0, -1) : text
}

const hostile = (name: string, make: (chars: number) => string): Hostile => ({ name, make })
const repeatedUnit = (unit: string) => hostile(`${JSON.stringify(unit)} repeated`, (chars) => repeated(unit, chars))

const abbreviations = fc.constantFrom('Mr. ', 'No. ', 'A. ', 'Dr. ', 'e.g. ', 'approx. ', 'St. ', 'Mr.', 'U.S.A. ')
const oneCharacter = fc.constantFrom('a', '.', ' ', '-', '(', '0', '\u0301', '字', '😀', '\u200b', ',', '*', '#', '\t', '$', 'Q')
const paragraphs = fc.constantFrom('a\n\n', 'Word.\n\n', '\n', ' \n', 'We serve 12 people.\n\n', '# A\n')
const bullets = fc.constantFrom('- x\n', '* item\n', '1. x\n', '• x\n', '- We fed 10 families.\n', '  - a;\n')
const separators = fc.constantFrom(', ', '; ', ' | ', '...', ' — ', '/', ' and ', '\t', ': ', '!? ', '. ')
const scriptPieces = ['Latin ', '漢字', 'العربية ', '😀', 'e\u0301', '\u200b', '\u200d', 'Ω ', '١٢٣', 'मराठी ', '👩‍👩‍👧', 'Ünïcödé ']
const figures = fc.constantFrom('$1,000,000 ', '12.5% ', '1234567890', '£', '€1.5m ', '2024-2025 ', '#1 ', '3.5', '$', '10,000 people ')
const brackets = fc.constantFrom(['(', ')'], ['[', ']'], ['{', '}'], ['((', ''], ['"', '"'], ['<b>', '</b>'])

/**
 * Text that has made text code slow: one ending repeated (abbreviations, paragraphs, bullets, separators,
 * figures), one unbroken run, brackets nested deep, scripts and combining marks mixed, or any short unit.
 */
export const hostileText: fc.Arbitrary<Hostile> = fc.oneof(
  abbreviations.map(repeatedUnit),
  oneCharacter.map(repeatedUnit),
  paragraphs.map(repeatedUnit),
  bullets.map(repeatedUnit),
  separators.map(repeatedUnit),
  figures.map(repeatedUnit),
  brackets.map(([open, close]) =>
    hostile(`${open}…${close} nested`, (chars) => {
      const depth = Math.floor(chars / (open.length + close.length || 1))
      return (open.repeat(depth) + 'x' + close.repeat(depth)).slice(0, chars)
    }),
  ),
  fc.array(fc.constantFrom(...scriptPieces), { minLength: 1, maxLength: 12 }).map((pieces) => repeatedUnit(pieces.join(''))),
  fc.string({ minLength: 1, maxLength: 8 }).map(repeatedUnit),
)

/** One of each kind, tried every time before the random ones. */
const CANONICAL: Hostile[] = [
  repeatedUnit('Mr. '),
  repeatedUnit('a'),
  repeatedUnit('a\n\n'),
  repeatedUnit('- x\n'),
  hostile('(…) nested', (chars) => '('.repeat(Math.floor(chars / 2)) + ')'.repeat(Math.floor(chars / 2))),
  repeatedUnit(', '),
  repeatedUnit(scriptPieces.join('')),
  repeatedUnit('$1,000,000 '),
]

/**
 * The property: for any hostile text, `run` on it at its cap costs at most GROWTH_BOUND × what it costs at a
 * quarter of the cap. Shrinking is off: a counterexample is already one short repeated unit.
 */
export async function expectLinear(run: (text: string) => unknown, cap: number, { runs = 3 }: { runs?: number } = {}) {
  await fc.assert(
    fc.asyncProperty(hostileText, async ({ name, make }) => {
      const growth = await growthOf(run, make, cap)
      if (growth.ratio > GROWTH_BOUND && growth.largeMs > NEGLIGIBLE_MS) throw new Error(describeGrowth(name, cap, growth))
    }),
    { numRuns: runs, endOnFailure: true, examples: CANONICAL.map((text) => [text]) },
  )
}

export function describeGrowth(name: string, cap: number, { smallMs, largeMs, ratio }: Growth): string {
  return `${name}: ${smallMs.toFixed(2)} ms at ${cap / GROWTH} characters, ${largeMs.toFixed(2)} ms at ${cap} (${ratio.toFixed(1)}×, more than ${GROWTH_BOUND}×)`
}
