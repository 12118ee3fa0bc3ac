/** Tokens as the provider counted them over a turn, or as estimated locally where it did not say. */
export interface TurnUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Whether any figure is a local estimate (the provider did not report usage). */
  estimated: boolean;
}

/** A usage of these figures. */
export function usageOf(inputTokens: number, outputTokens: number, estimated: boolean): TurnUsage {
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, estimated };
}

/** No tokens yet: the start of a turn's (or an agent's) usage. */
export function emptyUsage(): TurnUsage {
  return usageOf(0, 0, false);
}

/** The sum of two usages (estimated when either is). */
export function addUsage(total: TurnUsage, more: TurnUsage): TurnUsage {
  return usageOf(total.inputTokens + more.inputTokens, total.outputTokens + more.outputTokens, total.estimated || more.estimated);
}
