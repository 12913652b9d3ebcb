import { DRAFTER_ENGINE, engineLabel, MANUAL_ENGINE } from '~/shared/engines'

// The few words beside a text that say who wrote it, on the dashboard and the narrative page alike.
describe('engineLabel', () => {
  it('names the offline drafter, a model by its name, and a text people saved through the API', () => {
    expect(engineLabel(DRAFTER_ENGINE)).toBe('Written by the offline drafter')
    expect(engineLabel('gpt-4o-mini')).toBe('Written by gpt-4o-mini')
    // Never "Written by manual": people wrote it, and the API only kept it.
    expect(engineLabel(MANUAL_ENGINE)).toBe('Saved through the API')
  })
})
