import { readApplications, readOrganisations } from '../setup/corpus'
import { consistencyTally } from '../setup/corpus-figures'

// Figures that disagree across an application, on whole applications written and labelled by hand
// (tests/fixtures/corpus/applications/README.md; figures in docs/corpus.md). These hold the check where it
// stands (0.89 and 0.64 when written): the goals, 0.9 and 0.8 on unseen text, are not met yet.

it('flags few pairs that are not slips, and finds more than half of the slips', () => {
  const organisations = [...readOrganisations(), ...readOrganisations('held-out/organisations')]
  const tally = consistencyTally(readApplications(), organisations)
  expect(tally.labelled).toBeGreaterThanOrEqual(20)
  const why = tally.misses.join('\n')
  expect(tally.right / tally.flagged, why).toBeGreaterThanOrEqual(0.85)
  expect(tally.right / tally.labelled, why).toBeGreaterThanOrEqual(0.6)
})
