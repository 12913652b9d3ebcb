/**
 * What one answer or variant costs, said the same way wherever one is written: `variantsLeft` is what the
 * person may still write today, or null when they cost nothing (the offline drafter writes them).
 */
export function variantCost(variantsLeft: number | null): string {
  if (variantsLeft === null) return 'Written offline from your own words, it uses none of your daily allowance.'
  return `Each uses one of today's answers and variants (${variantsLeft} left); your narratives are counted apart.`
}

/** Whether the day's answers and variants are used up. */
export const variantsUsedUp = (variantsLeft: number | null) => variantsLeft === 0
