// What a text is about (docs/decisions/030): its words' stems, and themes where funder and applicant differ ("hunger", "pantries").

const STOP_WORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by can ' +
    'could did do does doing down during each either etc every few for from further had has have having he her here hers him his how ' +
    'i if in into is it its itself just least less may me might more most much must my no nor not now of off on once one only or ' +
    'other our ours out over own per please same shall she should so some such than that the their theirs them then there these ' +
    'they this those through to too under until up upon us very via was we well were what when where whether which while who whom ' +
    'whose why will with within without would yet you your yours among across toward towards around throughout ' +
    // A call's and a narrative's own vocabulary: in every one, so about none.
    'applicant applicants application applications apply organisation organisations organization organizations project projects ' +
    'proposal proposals grant grants grantee grantees funding fund funds funder funders funded priority priorities criteria ' +
    'criterion describe explain tell outline provide include including demonstrate demonstrates demonstrated show shows clear ' +
    'clearly strong strongly approach approaches ability able need needs way ways make makes made use used using new activity ' +
    'activities work works working program programs programme programmes service services people person area areas plan plans ' +
    'will year years time times example examples word words character characters maximum max limit question questions answer ' +
    'support supports supported supporting help helps helping ensure ensures specific particular particularly including ' +
    // How a call names its criteria ("Strategic fit: improves access to food"): the label, not the topic.
    'strategic fit relevance ' +
    // How a call is run, not what it is about.
    'date dates deadline closing close closes portal online submit submitted submission accepted form forms contact email decision decisions'
  ).split(/\s+/),
)

/** A word is in one theme at most, and themes stay narrow. A Map, so that "constructor" in a call does not find Object's own. */
const THEMES = new Map<string, string>(
  Object.entries({
    hunger: 'hunger hungry food foods meal meals nutrition nutritious pantry pantries grocery groceries insecurity',
    youth: 'youth young child children kid kids teen teens teenager teenagers adolescent adolescents student students pupil pupils',
    elders: 'older elder elders elderly senior seniors aged',
    health: 'health healthy wellbeing well-being medical clinic clinics illness disease mental',
    housing: 'housing house houses home homes homeless homelessness shelter shelters tenant tenants rent eviction',
    employment: 'employment employ employed unemployed unemployment job jobs workforce career careers apprentice apprenticeship wage wages',
    learning: 'education educational learn learning literacy reading tutor tutoring tutored school schools classroom curriculum',
    environment:
      'environment environmental climate carbon emission emissions waste recycle recycling recycled energy nature biodiversity pollution',
    equity:
      'equity equitable underserved marginalised marginalized disadvantaged low-income poverty poor vulnerable inclusion inclusive excluded deprived deprivation',
    evidence:
      'evaluation evaluate evaluated evaluating measure measured measuring measurement outcome outcomes result results evidence data indicator indicators track tracked monitor monitoring',
    continuity:
      'sustainability sustainable sustain sustained long-term legacy continue continued continuing continuation beyond diversify diversified income revenue',
    partnership: 'partner partners partnership partnerships collaborate collaboration collaborative coalition coalitions network networks',
    place: 'community communities neighbourhood neighbourhoods neighborhood neighborhoods local locally resident residents grassroots',
    capacity: 'capacity staff staffing volunteer volunteers governance leadership board',
    rural: 'rural remote countryside village villages farm farms farming agricultural',
    arts: 'art arts culture cultural creative creativity music theatre theater museum heritage',
    skills: 'skill skills training train trained trainee trainees mentoring mentor mentors',
  }).flatMap(([theme, words]) => words.split(' ').map((word): [string, string] => [word, `theme:${theme}`])),
)

const INFLECTIONS = ['ies', 'ied', 'ing', 'ed', 'es', 's']
const DERIVATIONS = [
  'ational',
  'ability',
  'ation',
  'ition',
  'ness',
  'ment',
  'ible',
  'able',
  'ity',
  'ive',
  'ous',
  'ate',
  'al',
  'er',
  'or',
  'ly',
  'e',
]

/** A rough stem: "communities" and "community", "evaluate" and "evaluation" meet. Only ever compared with another stem. */
export function stem(word: string): string {
  let stemmed = word
  for (const suffix of INFLECTIONS) {
    if (stemmed.endsWith(suffix) && stemmed.length - suffix.length >= 3 && !stemmed.endsWith('ss')) {
      stemmed = stemmed.slice(0, -suffix.length) + (suffix === 'ies' || suffix === 'ied' ? 'y' : '')
      break
    }
  }
  for (const suffix of DERIVATIONS) {
    if (stemmed.endsWith(suffix) && stemmed.length - suffix.length >= 4) return stemmed.slice(0, -suffix.length)
  }
  return stemmed
}

const WORD = /[\p{L}][\p{L}\p{M}'’-]*/gu

export function isContentWord(word: string): boolean {
  return word.length > 2 && !STOP_WORDS.has(word)
}

export function contentWords(text: string): string[] {
  const found: string[] = []
  for (const [match] of text.toLowerCase().matchAll(WORD)) {
    const word = match.replace(/['’]s?$/u, '')
    if (word.length > 2 && !STOP_WORDS.has(word)) found.push(word)
  }
  return found
}

export function topicsOf(text: string): Set<string> {
  const topics = new Set<string>()
  for (const word of contentWords(text)) {
    const parts = THEMES.has(word) ? [word] : word.split('-')
    for (const part of parts) if (part.length > 2 && !STOP_WORDS.has(part)) topics.add(THEMES.get(part) ?? stem(part))
  }
  return topics
}

export function sharedTopics(a: Set<string>, b: Set<string>): string[] {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a]
  return [...small].filter((topic) => large.has(topic))
}

/** Themes so common in this writing that sharing one says little ("community", "staff"). */
const WEAK_THEMES = new Set(['theme:place', 'theme:capacity'])

function weight(topic: string): number {
  return topic.startsWith('theme:') && !WEAK_THEMES.has(topic) ? 2 : 1
}

/** What they share weighs 2 or more (a theme, or two stems), or all the priority has when it weighs less ("Innovation"). */
export function speaksTo(priority: Set<string>, text: Set<string>): boolean {
  const score = closeness(priority, text)
  return score > 0 && score >= Math.min(2, closeness(priority, priority))
}

export function closeness(priority: Set<string>, text: Set<string>): number {
  let shared = 0
  for (const topic of sharedTopics(priority, text)) shared += weight(topic)
  return shared
}

/** What results and measures are about: figures speak to it too, where a caller can tell they are results. */
export const EVIDENCE = 'theme:evidence'

export function themeOf(topic: string): string | null {
  return topic.startsWith('theme:') ? topic.slice(6) : null
}
