import type { NarrativeInput } from '~/shared/narrative-schema'
import { NARRATIVE_FIELDS } from '~/shared/narrative-schema'

export const FULL_INPUT: NarrativeInput = {
  company: 'Harvest Table Food Bank',
  website: 'https://www.harvesttable.org',
  contactName1: 'Maria Delgado',
  contactTitle1: 'Executive Director',
  contactEmail1: 'maria@harvesttable.org',
  contactPhone1: '512-555-0142',
  missionStatement: 'To end hunger in Travis County by connecting families with nutritious food.',
  keyPrograms: 'We run 14 neighborhood pantries and a mobile market that visits rural towns every week.',
  impactMetrics: 'In 2023 we distributed 4.2 million pounds of food and served 38,000 individuals.',
  targetAudience: 'Low-income families, seniors on fixed incomes, and children who rely on school meals.',
  geographicFocus: 'Travis County and the surrounding rural communities of Central Texas.',
  selectedTone: 'professional',
}

/** The same input as the form posts it: strings only, optional fields left out when empty. */
export function asFormFields(input: Partial<NarrativeInput> = FULL_INPUT): Record<string, string> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined && value !== '')) as Record<string, string>
}

/** Every field filled ('' when not given), as a saved narrative's inputs are. */
export function toFormValuesForTests(input: NarrativeInput): Required<NarrativeInput> {
  const empty = Object.fromEntries(NARRATIVE_FIELDS.map((name) => [name, ''])) as Record<keyof NarrativeInput, string>
  return { ...empty, ...input } as Required<NarrativeInput>
}
