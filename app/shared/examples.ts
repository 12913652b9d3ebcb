import type { NarrativeInput } from '~/shared/narrative-schema'

// Sample answers behind each 'View Example' toggle, all of one fictional organisation so the five read as a whole.

export type ImpactField = keyof Pick<
  NarrativeInput,
  'missionStatement' | 'keyPrograms' | 'geographicFocus' | 'impactMetrics' | 'targetAudience' | 'successStory'
>

export const IMPACT_EXAMPLES: Record<ImpactField, string> = {
  missionStatement:
    'Riverbend Reading Partners helps every child in Cedar County read confidently by the end of third grade. ' +
    'We pair trained volunteer tutors with young readers and give families the books and skills to keep reading at home.',
  keyPrograms:
    'One-to-One Tutoring: trained volunteers meet each child twice a week for 30-minute sessions during the school day, ' +
    'following a structured phonics and comprehension plan.\n' +
    'Summer Reading Camp: a free six-week camp that keeps reading skills from slipping over the summer break.\n' +
    'Family Literacy Nights: monthly evenings at partner schools where parents learn simple reading routines and every family takes home new books.',
  geographicFocus:
    'Cedar County, a mostly rural county of about 85,000 people. We work in 14 elementary schools, nine of them in small towns ' +
    'more than 20 miles from the nearest public library.',
  impactMetrics:
    'In the 2023-24 school year we tutored 1,240 children with the help of 310 volunteers, who gave more than 18,000 hours. ' +
    '78% of children tutored for a full year gained at least one reading level, compared with 52% of similar students in the county.\n' +
    'We gave away 9,600 books, and 85% of parents who attended Family Literacy Nights reported reading with their child at least three times a week.\n' +
    'In 2024 the County Education Foundation named us its Community Partner of the Year.',
  targetAudience:
    'Children in kindergarten to third grade who are reading below grade level, most of them from low-income families ' +
    '(68% qualify for free or reduced-price school meals), and their parents and caregivers. ' +
    'About one in five of our students is learning English as a second language.',
  successStory:
    'When Maya joined One-to-One Tutoring in second grade, she could read 20 words a minute; by June she read 74. ' +
    '"She reads to her little brother every night now," her mother told us.',
}
