import { AWARD } from '~/shared/items'
import type { Line, MetricType } from '~/server/coach/contract.server'

// What a line of evidence is, as a reviewer reads it (docs/decisions/032), by ordered rules, the most particular first:
// "In 2024 we received a £6,000 grant" is money before it is a year. The labelled corpus measures them (docs/corpus.md).

type Typed = { type: MetricType; reason: string }
type Rule = (line: Line) => Typed | null

const MONEY = /(?:[$£€]|\b(?:US|CA|AU|NZ)\$)\s?\d|\b\d[\d,.]*\s?(?:million|m|k)?\s?(?:euros?|dollars|pounds sterling)\b/i
const RECEIVED =
  /\b(?:grants?|granted|award(?:s|ed)?|receiv(?:e|ed|es|ing)|funds?|funded|funding|raised|donat\w*|gave us|given (?:to )?us|(?:was|were) given|paid|contribut\w*|income|sales|brought in|budget|covers? [^.]{0,30}costs|settlement|part-funded)\b/i
/** Money the organisation gave out is what it delivered: "We gave out £20,000 in hardship grants". */
const WE_GAVE = /\bwe (?:gave|distributed|awarded|paid out|made|granted)\b/i
/** Who pays for the work, said without a figure: "our work is paid for by project grants". */
const PAID_FOR = /\b(?:paid for by|funded (?:by|through)|core (?:state |statutory )?funding)\b/i
/** Money that people earned or saved is what changed for them, not the organisation's income. */
const PEOPLE_GAINED =
  /\b(?:participants|members|learners|trainees|clients|families|graduates|youth|people|women|men|households|borrowers|tenants)\b[^.]{0,40}\b(?:earned|saved|gained)\b|\b(?:savings|incomes?|earnings) (?:rose|grew|increased)\b/i

/** "us", never "US" (the country). */
const FIRST_PERSON = /\b(?:[Ww]e|[Oo]ur|[Uu]s)\b/
const HISTORY =
  /\b(?:(?:opened|founded|started|began|established|launched|arrived)\b[^.]{0,50}\bin (?:\w+ )?(?:19|20)\d\d\b|(?:has|have) (?:\w+ed|been \w+ing)\b[^.]{0,60}\bsince (?:19|20)\d\d|(?:founded|set up|started(?: trading)?|began(?: trading)?|established|opened(?: our doors)?|formed|incorporated|registered(?: as an?\b[^.]{0,30}?)?) (?:in|on|as|by|back in) |joined\b[^.]{0,60}\bin (?:19|20)\d\d|became an? (?:registered|charit|communit|co-?op|year-round)|(?:has|have) been (?:\w+ing|open)\b[^.]{0,60}\bsince|our \d+(?:st|nd|rd|th) year)/i
const RECOGNISED = /\b(?:rated (?:our|us)|inspected|certified|quality mark|compliant|one of the (?:largest|biggest|oldest|first|only))\b/i
/** A count of what the work does, which makes a history line a result: "has helped 45 organisations". */
const SERVICE_COUNT = /\b(?:served|helped|supported|reached|trained|delivered|gave|provided)\s+(?:more than |over |about |around )?\d/i

const STATISTIC =
  /\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+in\s+(?:(?!(?:19|20)\d\d\b)\d+|two|three|four|five|six|seven|eight|nine|ten)\b|\d\s?(?:%|per ?cent)|\bpercent\b|\b(?:twice|double|three times|six times|half)\b|\b(?:rates?|likely|estimates?|counted|highest|lowest)\b|(?:above|below|than) the [\w ]{0,20}average|\bmillion\b|\b(?:years|times) (?:less|more|shorter|longer) than\b/i
/** "In our county": a place, which makes a figure no less someone else's. */
const OUR_PLACE = /\b[Oo]ur (?:county|area|town|city|region|community|state|province|country|borough|neighbou?rhood|district|village)\b/g
/** A profile of the people the work is with: "67% of the children we serve live in single-parent homes". */
const PROFILE = /\b(?:of the \w+|people|families|children|clients|households|those) (?:we|our) (?:serve|work with|support)\b/i
const SOURCE = /\b(?:according to|census|survey (?:shows|found)|study found|found that|estimates|index|report\b|point-in-time)\b/i
const PROBLEM =
  /\b(?:poverty|poor|low[- ]income|homeless\w*|unemploy\w*|food[- ]insecure|hunger|hungry|lonely|loneliness|isolat\w*|suicide|disorder|violence|abuse|prison|single-parent|no health insurance|uninsured|disadvantaged?|deprivation|deprived|claimant|cannot read|temporary accommodation|threatened|extinction|no (?:\w+ ){0,3}provision|nearest other|\d+ ?km away|do(?:es)? not always know|live[sd]? (?:on|with) (?:disability|less))\b/i
/** More people asking than before: demand, a need the work meets. */
const DEMAND_RISE =
  /\b(?:referrals|demand|visits|requests|enquiries|calls)\b[^.]{0,30}\b(?:rose|grew|increased|doubled|tripled)\b|\b(?:demand (?:keeps|is) (?:growing|rising)|growing demand)\b/i
const TURNED_DOWN_GOODS = /\bturn(?:ed)? down\b[^.]{0,30}\b(?:pounds|tonnes|kg) of\b/i

/** What changed for people: a state they reached, or what they said of themselves afterwards. */
const CHANGED =
  /\b(?:(?:were|was|are|is) (?:still )?(?:in|into) (?:paid )?(?:work|employment|school|a job|education|training|a tenancy)|in paid employment|still (?:housed|keeping)|improved their|passed (?:all |their )|gained (?:a|an|their)\b[\w ]{0,30}qualification|moved up|kept or raised|(?:fell|dropped|decreased|improved) (?:by )?\d+(?:\.\d+)?%|rose from \d+(?:\.\d+)?% to|graduated (?:in|within|on time)|(?:found|got|secured|started) (?:a |paid )?(?:jobs?|work|employment|tenancy)|moved (?:into|on to)|still (?:living|working|in)|promoted|earned (?:a |an |their )?[\w ]{0,30}(?:credential|qualification|certificate|diploma|degree|equivalency)|up from \d+(?:\.\d+)?%|(?:up|down) (?:by )?\d+(?:\.\d+)?%|less lonely|more (?:confident|active|hopeful)|felt (?:better|more|less|prouder|safer)|now had|knew (?:more|how)|had started|back (?:in|into|to) (?:school|work)|out of poverty|represented|went on to|now (?:ask|use|read|run|sit|own|live|work|attend)|into housing|a place to live|secured? (?:a )?(?:place|home|job|tenancy)|reconvicted|reoffend\w*|up to date with|from \d+(?:\.\d+)?% to \d+(?:\.\d+)?%|rose from [$£€]?\d[\d,.]* (?:[\w-]+ ){0,4}to [$£€]?\d)(?:\b|(?<=%))/i
const SAID = /\b(?:said|say|says|reported|told us|agreed)\b/i
/** Whose words: the people the work is with, not a population in a national survey. */
const PARTICIPANTS =
  /\b(?:we|our|us|participants|members|clients|graduates|learners|trainees|parents|carers|families|youth|young people|readers|shoppers|sailors|men|women|older people|littles|patients|partners|tenants|pupils|students)\b/i

const WAITING =
  /\bwait(?:s|ing)?\b|\bwaiting list\b|\bturn(?:ed)? (?:away|down)\b|\bhad to (?:refer|turn|close)\b|\bapplied for the \d+ places\b|\bapplications for \d+ (?:[\w-]+ )?places\b|\basked to join\b|\bcould not keep up\b|\bwas full on\b/i
const PUT_IN =
  /\bcosts? us\b|\b(?:volunteers?|staff|employees|paid (?:workers|roles)|hours|trustees|board members|coaches|tutors|mentors|drivers|fleet|vans?|minibus|boats|premises|building|rooms?|kitchen|in-kind|partners?|partnerships?)\b/i
const DELIVERED =
  /\b(?:served|trained|supported|matched|completed|ran|held|delivered|produced|provided|cooked|distributed|made)\s+(?:about |around |more than |over )?\d|\d[\d,]*\b[^.]{0,60}\b(?:completed|attended|took part)\b/i
const DELIVERY =
  /\b(?:served|tutored|trained|delivered|distributed|ran|held|provided|reached|supported|fed|housed|mentored|hosted|rescued|sold|recycled|repaired|attended|completed|took part)\b/i
const COUNT = /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|hundred|thousand)\b/i

const RULES: Rule[] = [
  (line) => {
    if (WE_GAVE.test(line.text)) return null
    const received = (MONEY.test(line.text) && !PEOPLE_GAINED.test(line.text) ? RECEIVED.exec(line.text) : null) ?? PAID_FOR.exec(line.text)
    return received && { type: 'funding', reason: `Money the organisation received (“${received[0]}”): funding, not a result of the work.` }
  },
  (line) => {
    const history = HISTORY.exec(line.text)
    // "31 young people started a traineeship in 2025" counts what the work did; a history counts only years.
    const counts = /\d/.test(line.text.replace(/\b(?:19|20)\d\d\b|\b\d+(?:st|nd|rd|th)\b/g, ''))
    return history && !counts && !SERVICE_COUNT.test(line.text)
      ? { type: 'context', reason: `Tells the organisation's story (“${history[0]}”): the setting, not a result.` }
      : null
  },
  (line) => {
    const award = AWARD.exec(line.text) ?? RECOGNISED.exec(line.text)
    return award && !SAID.test(line.text)
      ? { type: 'context', reason: `Recognition (“${award[0]}”) speaks for the work, but it measures no change.` }
      : null
  },
  (line) => {
    const said = SAID.exec(line.text)
    const share = /\d\s?%|\b\d+ of (?:the )?\d+\b/.test(line.text)
    const theirOwnWords = said && (PARTICIPANTS.test(line.text) || share) && (FIRST_PERSON.test(line.text) || !PROBLEM.test(line.text))
    const changed = CHANGED.exec(line.text) ?? PEOPLE_GAINED.exec(line.text) ?? (theirOwnWords ? said : null)
    if (!changed || (!FIRST_PERSON.test(line.text) && SOURCE.test(line.text)) || DEMAND_RISE.test(line.text)) return null
    return { type: 'outcome', reason: `Says what changed for people (“${changed[0]}”): an outcome.` }
  },
  (line) => {
    const theirs = !FIRST_PERSON.test(line.text.replace(OUR_PLACE, '')) || PROFILE.test(line.text)
    const need =
      DEMAND_RISE.exec(line.text) ??
      TURNED_DOWN_GOODS.exec(line.text) ??
      (theirs ? (SOURCE.exec(line.text) ?? PROBLEM.exec(line.text) ?? (DELIVERY.test(line.text) ? null : STATISTIC.exec(line.text))) : null)
    return need ? { type: 'need', reason: `Describes the need (“${need[0]}”): the size of the problem, not what the work did.` } : null
  },
  (line) => {
    const waiting = WAITING.exec(line.text)
    if (waiting) return { type: 'input', reason: `Shows demand the work cannot yet meet (“${waiting[0]}”): an input a funder can change.` }
    const input = PUT_IN.exec(line.text)
    return input && !DELIVERED.test(line.text)
      ? { type: 'input', reason: `Counts what went into the work (“${input[0]}”): an input.` }
      : null
  },
  (line) => {
    const count = COUNT.exec(line.text)
    if (count && !/^(?:19|20)\d\d$/.test(count[0]))
      return { type: 'output', reason: `Counts what the work delivered (“${count[0]}”): an output.` }
    const delivered = DELIVERY.exec(line.text)
    return (
      delivered && { type: 'output', reason: `Says what the work delivered (“${delivered[0]}”): an output, though it gives no number.` }
    )
  },
]

export function typeOf(line: Line): Typed {
  for (const rule of RULES) {
    const typed = rule(line)
    if (typed) return typed
  }
  return { type: 'context', reason: 'Gives no figure: it reads as background to the figures.' }
}
