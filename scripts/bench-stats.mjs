// Statistics shared by the packages' benchmarks (`pnpm bench`): medians, percentiles, and timing
// several contenders in interleaved rounds, so drift in machine load hits every one alike.
import { loadavg } from 'node:os';

/** The median of `values`. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The `p`th percentile (0–100) of `values`. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Milliseconds `action` takes to settle. */
export async function time(action) {
  const start = performance.now();
  await action();
  return performance.now() - start;
}

/**
 * Times each of `contenders` (name → async action) `runs` times after `warmUp` untimed rounds, one
 * of each per round, and returns the samples by name. `pauseMs` (untimed) after each action lets
 * work a contender defers past its answer (a server's log write) end before the next one is timed.
 */
export async function sampleInterleaved(contenders, { runs = 300, warmUp = 30, pauseMs = 0 } = {}) {
  const samples = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
  for (let run = 0; run < warmUp + runs; run++) {
    for (const [name, action] of Object.entries(contenders)) {
      const elapsed = await time(action);
      if (run >= warmUp) samples[name].push(elapsed);
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
  return samples;
}

/** Prints each contender's median in ms and its ratio to the `baseline` contender's median. */
export function printRatios(samples, baseline) {
  const runs = Object.values(samples)[0]?.length ?? 0;
  const reference = median(samples[baseline]);
  console.log(`Median of ${runs} runs each (interleaved; load average ${loadavg()[0].toFixed(1)}):`);
  for (const [name, values] of Object.entries(samples)) {
    console.log(`  ${name.padEnd(32)} ${median(values).toFixed(2).padStart(7)} ms   ${(median(values) / reference).toFixed(2)}×`);
  }
}
