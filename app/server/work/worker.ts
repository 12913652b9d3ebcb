// The pool's worker (app/server/platform/work-pool.server.ts): each concern's heavy, pure functions by task name. It sits
// beside the routes since it imports the concerns, which reach it only through runWork. Built as build/server/work-worker.js.
import os from 'node:os'
import { checkEvidence } from '~/server/coach/check.server'
import { readCall } from '~/server/funders/call-reading.server'
import type { DraftRequest } from '~/server/generation/engines/contract.server'
import { draftNarrative } from '~/server/generation/drafter/drafter.server'
import type { VariantTask } from '~/server/generation/engines/contract.server'
import { draftVariant } from '~/server/generation/drafter/variant-drafter.server'
import { answerQuestion } from '~/server/generation/variants/question-answer.server'
import { buildNarrativeDocx } from '~/server/narratives/docx.server'
import { buildNarrativePdf, warmPdf } from '~/server/narratives/pdf.server'
import { textColumns, type TextColumnsRequest } from '~/server/narratives/alignment.server'
import { claimsColumn, loadEnglishWords, type ClaimInputs } from '~/server/narratives/claims.server'
import { compareWords } from '~/server/narratives/word-diff.server'
import { conflictList, type ConflictRequest } from '~/server/narratives/consistency.server'
import type { WorkRequest, WorkTask } from '~/server/platform/work-pool.server'
import { sentences } from '~/shared/variant-limits'

/** What the first task would otherwise pay (fonts, ICU's sentence rules, the word list, the tagger), begun as the thread loads. */
const warmed = (async () => {
  loadEnglishWords()
  for (const sentence of sentences('Loaded. Ready.')) void sentence
  // The tagger's model, and the claims' code compiled: a generation's end waits for its claims.
  textColumns('In 2024 we fed 300 families.', { impactMetrics: 'We fed 300 families in 2024.' }, null)
  await warmPdf()
  return null
})()

const warm = () => warmed

// On Linux a thread has its own priority: heavy work gives way to the server's answers (elsewhere it would lower the whole server's).
if (process.platform === 'linux') os.setPriority(19)

type Task = (input: never) => unknown

const TASKS: Record<WorkTask, Task> = {
  warm,
  'narrative-docx': buildNarrativeDocx,
  'narrative-pdf': buildNarrativePdf,
  'read-call': readCall,
  'check-evidence': checkEvidence,
  'draft-narrative': ({ input, brief, variation }: DraftRequest) => draftNarrative(input, brief, { variation }),
  'draft-variant': draftVariant,
  'answer-question': ({ narrativeText, question = '', limit }: VariantTask) => answerQuestion(narrativeText, question, limit),
  'text-columns': ({ text, inputs, brief }: TextColumnsRequest) => textColumns(text, inputs, brief),
  'claims-column': ({ text, inputs }: { text: string; inputs: ClaimInputs }) => claimsColumn(text, inputs),
  'compare-words': ({ from, to }: { from: string; to: string }) => compareWords(from, to),
  'find-conflicts': ({ texts, inputs }: ConflictRequest) => conflictList(texts, inputs),
}

export default function run({ task, input }: WorkRequest) {
  return (TASKS[task] as (input: unknown) => unknown)(input)
}
