import { readApplications, readOrganisations } from '../setup/corpus'
import { consistencyTally } from '../setup/corpus-figures'

// Figures that disagree across an application, on whole applications written and labelled by hand
// (tests/fixtures/corpus/applications/README.md; figures in docs/corpus.md): few false flags, most slips found.

it('flags at least 90% of labelled slips’ pairs rightly and finds at least 80% of them', () => {
  const tally = consistencyTally(readApplications(), readOrganisations())
  expect(tally.labelled).toBeGreaterThanOrEqual(10)
  const why = tally.misses.join('\n')
  expect(tally.right / tally.flagged, why).toBeGreaterThanOrEqual(0.9)
  expect(tally.right / tally.labelled, why).toBeGreaterThanOrEqual(0.8)
})
