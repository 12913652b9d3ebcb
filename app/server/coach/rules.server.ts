import { keyWords } from '~/shared/items'
import { untag } from '~/server/language/tagger.server'
import type { EvidenceField, EvidenceFlag, EvidenceMetric, Line, MetricType } from '~/server/coach/contract.server'
import { typeOf } from '~/server/coach/evidence-types.server'

// The coach's rules (docs/decisions/032): each reads one line, or the form as a whole, and says what a reviewer would
// ask. A suggestion asks for the missing piece in brackets: the coach never supplies a number.

const NUMBER = String.raw`\d[\d,]*(?:\.\d+)?`
const YEAR = /\b(?:19|20)\d{2}\b/
const PERCENT = new RegExp(String.raw`${NUMBER}\s?(?:%|per ?cent\b)`, 'gi')
/** A count or an amount: a number that is not only a year. */
const FIGURE = new RegExp(String.raw`(?:[$£€¥₹]\s?)?${NUMBER}(?:\s?(?:%|per ?cent\b|million\b|billion\b|thousand\b|[km]\b))?`, 'gi')
const RATIO = /\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+in\s+(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\b/i

const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december'
const PERIOD = new RegExp(
  [
    String.raw`\b(?:19|20)\d{2}\b`,
    String.raw`\bfy\s?\d{2,4}\b`,
    String.raw`\b(?:annual(?:ly)?|yearly|monthly|weekly|daily|nightly|to date|so far|since|year-round|this season)\b`,
    String.raw`\b(?:per|a|an|each|every|this|last|past|previous|next|first|one|two|three|four|five|six|seven|eight|nine|ten|twelve|\d+)\s+(?:years?|months?|weeks?|days?|terms?|seasons?|quarters?|semesters?|decades?|summers?|winters?)\b`,
    String.raw`\b(?:school|academic|financial|fiscal|calendar|program|programme|project)\s+year\b`,
    String.raw`\b(?:${MONTHS})\b`,
  ].join('|'),
  'i',
)

const CHANGE =
  /\b(?:up|down)\s+(?:by\s+)?\d[\d,.]*(?:\s?%)?|\b(?:rose|risen|rises|grew|grown|grows|increased|increases|decreased|decreases|fell|fallen|falls|dropped|declined|declines|reduced|reduces|improved|improves|doubled|tripled|halved|jumped|climbed|cut)\b|\b(?:higher|lower|better|worse)\b(?!\s+than)/i
const BASELINE =
  /\b(?:from|compared|than|versus|vs\.?|against|baseline|relative to|year[- ]on[- ]year|before|prior to|previous(?:ly)?|last year|the year before)\b/i
const DENOMINATOR = new RegExp(
  [
    String.raw`\b(?:of|out of|among|across)\s+(?:the\s+|our\s+|all\s+|its\s+|their\s+)?(?:[$£€]\s?)?${NUMBER}`,
    String.raw`\bn\s?=\s?\d`,
    String.raw`${NUMBER}\s+(?:of|out of)\s+${NUMBER}`,
    String.raw`${NUMBER}\s*\(\s*${NUMBER}\s?%\s*\)`,
  ].join('|'),
  'i',
)

const VAGUE =
  /\b(?:many|numerous|countless|several|various|a (?:lot|number|range|variety|great deal) of|lots of|hundreds of|thousands of|millions of|dozens of|scores of|large numbers of|growing numbers of|increasing numbers of|more and more|significant(?:ly)?|substantial(?:ly)?|considerabl[ey]|huge|massive|vast|tremendous(?:ly)?|dramatic(?:ally)?|majority of)\b/i
const INTENSITY = /^(?:significant|substantial|considerabl|huge|massive|vast|tremendous|dramatic)/i
const CLAIMED_CHANGE =
  /\b(?:changed|changing|changes|transformed|transforming|transforms|impacted|impacting|impacts|empowered|empowering|empowers|lifted|made a (?:real |lasting |big )?difference|improved the lives|improving the lives)\b|^(?:impact|outcomes?)\s*[:-]/i
const SOURCE =
  /\b(?:according to|source[ds]?|census|survey|report(?:ed)?|data|study|studies|statistics|research|index|bureau|department|ministry|office for|agency|cdc|usda|ons|nhs|unicef|world bank|feeding america|who)\b|\([^()]*\b(?:19|20)\d{2}\b[^()]*\)/i
const PLACE_WORDS =
  /\b(?:county|city|state|nation(?:al(?:ly)?)?|nationwide|statewide|worldwide|global(?:ly)?|region(?:al(?:ly)?)?|district|province|country|town|village|borough|parish|neighbou?rhood|rural|urban)\b/i

/** Words too general to tie a programme to a result: every programme and every result may say them. */
const GENERAL_WORDS = new Set(
  keyWords(
    'program programme programs programmes service services support people person family families community communities work project projects local help year years through who',
  ),
)

/** The first percentage that is a share of a group, not the size of a change ("up 18%", "by 40%"). */
function shareOf(text: string): string | null {
  for (const match of text.matchAll(PERCENT)) {
    const before = text.slice(Math.max(0, match.index - 16), match.index)
    if (!/\b(?:up|down|by|rose|fell|increase of|decrease of|rise of|fall of|growth of)\s+$/i.test(before)) return match[0]
  }
  return null
}

/** The first figure that is not only a year, of at least `least` when a bare number; without the comma after it. */
function firstFigure(text: string, least = 0): string | null {
  for (const match of text.matchAll(FIGURE)) {
    const figure = match[0].replace(/,+$/, '')
    if (isYearOnly(figure)) continue
    if (/^[\d,.]+$/.test(figure) && Number(figure.replace(/,/g, '')) < least) continue
    return figure
  }
  return null
}

function isYearOnly(figure: string): boolean {
  return /^(?:19|20)\d{2}$/.test(figure.trim())
}

export function metricFlags(line: Line, type: MetricType): EvidenceFlag[] {
  const flags: EvidenceFlag[] = []
  const text = line.text
  const figure = firstFigure(text)
  if (figure && type !== 'context' && type !== 'need' && !PERIOD.test(text))
    flags.push({
      kind: 'no-period',
      words: figure,
      suggestion: `Say when: “${clip(text)}, in [which year or period?]”.`,
    })
  const change = CHANGE.exec(text)
  if (change && (figure || /doubled|tripled|halved/i.test(change[0])) && !BASELINE.test(text))
    flags.push({
      kind: 'no-baseline',
      words: change[0],
      suggestion: `Say what it changed from: “${clip(text)}, from [the figure before] in [when] to [the figure now]”.`,
    })
  const percent = shareOf(text)
  if (percent && !DENOMINATOR.test(text))
    flags.push({
      kind: 'no-denominator',
      words: percent,
      suggestion: `Say of how many: “${clip(text.replace(percent, `${percent} ([how many] of [how many])`))}”.`,
    })
  const claimed = CLAIMED_CHANGE.exec(text)
  if (claimed && type !== 'outcome')
    flags.push({
      kind: 'output-as-outcome',
      words: claimed[0].replace(/\s*[:-]$/, ''),
      suggestion: `That counts who took part. Say what changed for them: “[how many] of ${countedGroup(text)} [what changed, e.g. found work] by [when]”.`,
    })
  flags.push(...vagueFlags(line))
  if (type === 'need') flags.push(...needFlags(line, 'impactMetrics'))
  return flags
}

function vagueFlags(line: Line): EvidenceFlag[] {
  const match = VAGUE.exec(line.text)
  if (!match) return []
  const words = match[0]
  const asked = INTENSITY.test(words) ? '[by how much, from what to what?]' : '[how many]'
  const replaced = INTENSITY.test(words)
    ? upperStart(`${line.text.replace(new RegExp(`\\s*\\b${escape(words)}\\b`, 'i'), '')} ${asked}`.trim(), line.text)
    : line.text.replace(words, asked)
  return [{ kind: 'vague', words, suggestion: `Give the number: “${clip(replaced.trim())}”.` }]
}

/** A need statistic (the size of the problem), in any field, should say where it comes from, when, and where it holds. */
export function needFlags(line: Line, field: EvidenceField): EvidenceFlag[] {
  // A share, a ratio, or a count of a population ("16,000 people"): never an age or a day ("Aged 19, Sam …").
  const statistic = firstMatch(PERCENT, line.text) ?? RATIO.exec(line.text)?.[0] ?? firstFigure(line.text, 100)
  if (!statistic || typeOf(line).type !== 'need') return []
  const missing = [
    SOURCE.test(line.text) ? null : '[source]',
    YEAR.test(line.text) ? null : '[year]',
    hasPlace(line) ? null : 'in [place]',
  ].filter((part): part is string => part !== null)
  if (missing.length === 0) return []
  const detail = missing.filter((part) => part.startsWith('[')).join(', ')
  const place = missing.includes('in [place]') ? ' in [place]' : ''
  return [
    {
      kind: 'need-without-source',
      words: statistic,
      suggestion: `Say where the figure comes from: “${clip(line.text)}${place}${detail ? ` (${detail})` : ''}”.`,
      field,
    },
  ]
}

function hasPlace(line: Line): boolean {
  return PLACE_WORDS.test(line.text) || line.tokens.some((token, index) => index > 0 && token.pos === 'PROPN')
}

/** A programme that no result line speaks of, by the words they share. Only lines that name a programme are asked. */
export function programmeFlags(programmes: Line[], metrics: Line[]): EvidenceFlag[] {
  const resultWords = new Set(metrics.flatMap((line) => keyWords(line.text)))
  return programmes.flatMap((programme) => {
    const named = programmeName(programme)
    const words = named ? keyWords(programme.text).filter((word) => !GENERAL_WORDS.has(word)) : []
    if (!named || words.length === 0 || words.some((word) => resultWords.has(word))) return []
    const name = clip(named, 8)
    return [
      {
        kind: 'programme-without-result' as const,
        words: name,
        suggestion: `Add a result for it: “[how many] [people] took part in ${lowerStart(name)} in [year], and [what changed for them]”.`,
        field: 'keyPrograms' as const,
      },
    ]
  })
}

/** Figures that all count activity: the form says what was done, and nothing of what it changed. */
export function noOutcomeFlag(metrics: EvidenceMetric[]): EvidenceFlag[] {
  const counted = metrics.filter((metric) => metric.type === 'output' || metric.type === 'input')
  if (counted.length === 0 || metrics.some((metric) => metric.type === 'outcome')) return []
  const example = metrics.find((metric) => metric.type === 'output') ?? counted[0]
  return [
    {
      kind: 'no-outcome',
      words: counted.map((metric) => clip(metric.text, 6)).join('; '),
      suggestion: `Add one line on what changed, with its measure: “[how many] of ${countedGroup(example.text)} [what changed for them] by [when]”.`,
      field: 'impactMetrics',
    },
  ]
}

const COUNTED = new RegExp(String.raw`(?:[$£€]\s?)?${NUMBER}\s+((?:[\p{L}'’-]+\s+){0,3}[\p{L}'’-]+)`, 'gu')
/** A count of things rather than of people: "4.2 million pounds", "18,000 hours". */
const AMOUNT = /^(?:million|billion|thousand|pounds?|tons?|tonnes?|kg|kilos?|lbs?|hours?|meals?|miles?|acres?|hectares?|percent|per)\b/i

/** "the 412 adults tutored": the group a count line names, to ask what changed for them; a year names no group. */
function countedGroup(text: string): string {
  const groups = [...text.matchAll(COUNTED)].flatMap((match) => {
    const figure = match[0].slice(0, match[0].length - match[1].length).trim()
    const words = match[1].split(/\s+/)
    if (isYearOnly(figure) || /^(?:we|our|us|they|it|and|the)$/i.test(words[0])) return []
    const end = words.findIndex((word) => GROUP_END.test(word))
    return [{ amount: AMOUNT.test(words[0]), text: `the ${figure} ${(end === -1 ? words : words.slice(0, Math.max(end, 1))).join(' ')}` }]
  })
  return (groups.find((group) => !group.amount) ?? groups[0])?.text ?? 'the people it counts'
}

/** A programme as the form names it ("Older Friends: we match…", "We run …", a name with no verb); any other sentence names none. */
function programmeName(line: Line): string | null {
  const labelled = /^([^:.!?]{2,60}):\s+\S/u.exec(line.text)
  if (labelled && labelled[1].trim().split(/\s+/).length <= PROGRAMME_NAME_WORDS) return labelled[1].trim()
  const tokens = line.tokens
  const verb = tokens.findIndex((token) => token.pos === 'VERB' || token.pos === 'AUX')
  if (verb === -1) return line.text
  if (!/^(?:we|our)$/i.test(tokens[0]?.text ?? '')) return null
  let from = verb + 1
  while (tokens[from] && (tokens[from].pos === 'ADV' || tokens[from].pos === 'PART')) from++
  const end = tokens.findIndex((token, index) => index > from && /^[,;:–—(]$/.test(token.text))
  const rest = tokens.slice(from, end === -1 ? undefined : end)
  return rest.length > 0 ? untag(rest) : null
}

const PROGRAMME_NAME_WORDS = 8

function clip(text: string, maxWords = 24): string {
  const words = text.trim().split(/\s+/)
  return words.length <= maxWords ? text.trim() : `${words.slice(0, maxWords).join(' ')}…`
}

const GROUP_END = /^(?:in|on|at|for|with|by|from|since|during|across|over|through|and|each|every|per|a|an|the)$/i

function lowerStart(text: string): string {
  return /^(?:\p{Lu}\p{Ll}*)\s+\p{Ll}/u.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text
}

function upperStart(text: string, like: string): string {
  return /^\p{Lu}/u.test(like) ? text.charAt(0).toUpperCase() + text.slice(1) : text
}

function firstMatch(pattern: RegExp, text: string): string | null {
  pattern.lastIndex = 0
  const match = pattern.exec(text)
  pattern.lastIndex = 0
  return match ? match[0] : null
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
