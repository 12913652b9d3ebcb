import type { Style } from '~/server/generation/drafter/contract.server'

// The voices' American spelling and curly apostrophes, turned to the organisation's own (docs/decisions/033); never the user's words.

const BRITISH_SPELLINGS: Record<string, string> = {
  organization: 'organisation',
  organizations: 'organisations',
  program: 'programme',
  programs: 'programmes',
  center: 'centre',
  centers: 'centres',
  neighborhood: 'neighbourhood',
  neighborhoods: 'neighbourhoods',
  recognize: 'recognise',
  recognized: 'recognised',
  organized: 'organised',
  enrollment: 'enrolment',
  behavior: 'behaviour',
  labor: 'labour',
  favor: 'favour',
  honor: 'honour',
  analyze: 'analyse',
  prioritize: 'prioritise',
}
const WORDS = new RegExp(`\\b(?:${Object.keys(BRITISH_SPELLINGS).join('|')})\\b`, 'gi')

export function localise(text: string, style: Style): string {
  const spelled = style.spelling === 'uk' ? text.replace(WORDS, (word) => matchCase(BRITISH_SPELLINGS[word.toLowerCase()], word)) : text
  return style.apostrophe === "'" ? spelled.replace(/’/g, "'") : spelled
}

function matchCase(replacement: string, original: string): string {
  return /^\p{Lu}/u.test(original) ? replacement.charAt(0).toUpperCase() + replacement.slice(1) : replacement
}
