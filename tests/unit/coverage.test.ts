import { leftOut } from '~/server/narratives/coverage.server'

// What a text leaves out of its inputs (docs/decisions/033): the page lists it under the narrative.

const inputs = {
  missionStatement: 'We end hunger in Lane County, where 1 in 6 residents is food insecure.',
  keyPrograms: '- Weekend meal packs for school children\n- A mobile pantry for rural towns',
  impactMetrics: '- 2.8 million pounds of food distributed in 2023\n- 61,000 people served',
  targetAudience: 'Working families and seniors.',
  successStory: 'After her hours were cut, Dana used the pantry for six months.',
}

const whole =
  'We end hunger in Lane County, where 1 in 6 residents is food insecure. We send weekend meal packs home with school children, and a mobile pantry visits rural towns. In 2023 we distributed 2.8 million pounds of food and served 61,000 people. After her hours were cut, Dana used the pantry for six months.'

describe('leftOut', () => {
  it('finds nothing missing from a text that carries every item, however its figures are written', () => {
    expect(leftOut(whole, inputs)).toEqual([])
    expect(leftOut(whole.replace('61,000', '61000'), inputs)).toEqual([])
  })

  it('names the programme, result, story and figure a text does not carry', () => {
    const text = 'We end hunger in Lane County. We send weekend meal packs home with school children. We served 61,000 people.'
    expect(leftOut(text, inputs)).toEqual([
      { kind: 'programme', text: 'A mobile pantry for rural towns' },
      { kind: 'result', text: '2.8 million pounds of food distributed in 2023' },
      { kind: 'story', text: inputs.successStory },
      { kind: 'figure', text: 'We end hunger in Lane County, where 1 in 6 residents is food insecure' },
    ])
  })

  it('counts an item whose words are there but whose figure is not as missing', () => {
    expect(leftOut(whole.replace('61,000 people', '16,000 people'), inputs)).toEqual([{ kind: 'result', text: '61,000 people served' }])
  })
})
